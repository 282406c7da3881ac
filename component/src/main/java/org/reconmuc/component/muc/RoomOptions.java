package org.reconmuc.component.muc;

import java.util.List;

/**
 * XEP-0045's room options, the core's own, in the order of the owner's form: every room has them,
 * ahead of its features' options. Adding one is one class (a {@link RoomOption}) and its line here;
 * the form, the store, disco#info and the access rule ({@link RoomAccess}) take it from the room's
 * configuration ({@link RoomConfig#options()}). An option that is a feature of its own (slow mode)
 * lives in its package and is one line of the service's features instead.
 */
public final class RoomOptions {
    public static final List<RoomOption<?>> ALL = List.of(
            NameOption.NAME,
            DescriptionOption.DESCRIPTION,
            LanguageOption.LANGUAGE,
            PersistentOption.PERSISTENT,
            PublicOption.PUBLIC,
            MembersOnlyOption.MEMBERS_ONLY,
            ModeratedOption.MODERATED,
            PasswordOption.PASSWORD,
            WhoisOption.WHOIS,
            ChangeSubjectOption.CHANGE_SUBJECT,
            AllowInvitesOption.ALLOW_INVITES,
            AllowRegisterOption.ALLOW_REGISTER,
            AllowPmOption.ALLOW_PM,
            MaxUsersOption.MAX_USERS,
            HistoryLengthOption.HISTORY_LENGTH,
            PresenceBroadcastOption.PRESENCE_BROADCAST,
            LoggingOption.LOGGING,
            LiveStanzaIdsOption.LIVE_STANZA_IDS);

    private RoomOptions() {
    }
}
