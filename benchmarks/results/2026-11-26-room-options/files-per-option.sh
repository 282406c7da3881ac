#!/bin/bash
# Files under component/src/main that mention each room option (its accessor, form var or option class).
cd "${1:-/work/wt-options}/component/src/main" || exit 1
declare -A P=(
 [password]='passwordProtected\(|\.password\(\)|PASSWORDPROTECTED|ROOMSECRET|roomconfig_roomsecret|roomconfig_passwordprotectedroom|PasswordOption'
 [membersonly]='membersOnly\(\)|MEMBERSONLY|roomconfig_membersonly|MembersOnlyOption'
 [logging]='\.logged\(\)|ENABLELOGGING|roomconfig_enablelogging|LoggingOption'
 [moderated]='\.moderated\(\)|roomconfig_moderatedroom|ModeratedOption'
 [presencebroadcast]='presenceBroadcast\(\)|broadcastsPresenceOf|PRESENCEBROADCAST|roomconfig_presencebroadcast|PresenceBroadcastOption'
 [persistent]='\.persistent\(\)|withPersistent|\bPERSISTENT\b|roomconfig_persistentroom|PersistentOption'
 [public]='(config\(\)|config|\bc)\.publicRoom\(\)|\bPUBLIC\b|roomconfig_publicroom|PublicOption'
 [livestanzaids]='liveStanzaIds\(\)|stanzaIdsForEveryone|LIVESTANZAIDS|roomconfig_livestanzaids|LiveStanzaIdsOption'
)
for k in password membersonly logging moderated presencebroadcast persistent public livestanzaids; do
  # code lines only: javadoc and // comments that name an option do not count
  files=$(grep -rnE "${P[$k]}" --include=*.java . | grep -vE '^[^:]+:[0-9]+:\s*(\*|//|/\*)' | cut -d: -f1 | sort -u | sed 's|.*/||' | tr '\n' ' ')
  printf '%-18s %2d  %s\n' "$k" "$(echo $files | wc -w)" "$files"
done
