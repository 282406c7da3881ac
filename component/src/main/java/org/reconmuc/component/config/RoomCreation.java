package org.reconmuc.component.config;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import org.xmpp.packet.JID;

/**
 * Who may create rooms, and how many rooms one user may have created that still exist (issue 27
 * part 4; ejabberd's {@code access_create}, Prosody's {@code restrict_room_creation}). It applies
 * to new rooms only: entering a room that exists is not creating one, and rooms restored from the
 * store were created before.
 *
 * <p>{@code creators}, each a term of the {@code room-creators} setting:
 * <ul>
 * <li>{@code anyone}: every user (the default; alone);</li>
 * <li>{@code admins}: nobody but the {@code admins} (Prosody's {@code restrict_room_creation = true});</li>
 * <li>{@code local}: users of the server this service is a subdomain of (the service's domain
 * without its first label: {@code muc.example.org} → {@code example.org}), as Prosody's
 * {@code "local"};</li>
 * <li>a domain ({@code example.org}): every user of that domain;</li>
 * <li>a bare JID ({@code alice@example.org}): that user.</li>
 * </ul>
 * The {@code admins} (bare JIDs) may always create rooms, and as many as they like.
 *
 * @param creators        the terms above, normalized (lower case, stringprep)
 * @param admins          bare JIDs, normalized
 * @param maxRoomsPerUser rooms one user (bare JID) may have created that still exist; 0: no limit
 */
public record RoomCreation(List<String> creators, Set<String> admins, int maxRoomsPerUser) {
    public static final String ANYONE = "anyone";
    public static final String ADMINS = "admins";
    public static final String LOCAL = "local";
    /**
     * A person rarely keeps more than a handful of rooms of their own at once; 20 leaves room for
     * a team's channels while one account cannot fill the service (issue 27: 200 rooms in 0.6 s).
     */
    public static final int DEFAULT_MAX_ROOMS_PER_USER = 20;
    /** Anyone may create rooms, at most {@link #DEFAULT_MAX_ROOMS_PER_USER} each. */
    public static final RoomCreation DEFAULT = new RoomCreation(List.of(ANYONE), Set.of(), DEFAULT_MAX_ROOMS_PER_USER);

    public RoomCreation {
        Objects.requireNonNull(creators, "room-creators");
        Objects.requireNonNull(admins, "admins");
        if (maxRoomsPerUser < 0) {
            throw new IllegalArgumentException("max-rooms-per-user must be >= 0 (0: no limit), not " + maxRoomsPerUser);
        }
        List<String> terms = new ArrayList<>();
        for (String c : creators) {
            terms.add(creatorTerm(c));
        }
        if (terms.isEmpty()) {
            throw new IllegalArgumentException("room-creators must not be empty: 'anyone', 'admins', 'local',"
                    + " or domains and bare JIDs separated by commas");
        }
        if (terms.contains(ANYONE) && terms.size() > 1) {
            throw new IllegalArgumentException("room-creators: 'anyone' stands alone, not with " + terms);
        }
        creators = List.copyOf(new LinkedHashSet<>(terms));
        Set<String> bare = new LinkedHashSet<>();
        for (String a : admins) {
            bare.add(bareJid("admins", a));
        }
        admins = Set.copyOf(bare);
    }

    /**
     * From the settings' text: {@code room-creators} and {@code admins} are lists separated by
     * commas or white space ({@code admins} may be empty).
     */
    public static RoomCreation parse(String creators, String admins, int maxRoomsPerUser) {
        return new RoomCreation(split(creators), Set.copyOf(split(admins)), maxRoomsPerUser);
    }

    public boolean isAdmin(JID user) {
        return admins.contains(user.toBareJID());
    }

    /** True if {@code user} (a bare, normalized JID) may create a room on the service {@code serviceDomain}. */
    public boolean mayCreate(JID user, String serviceDomain) {
        if (creators.contains(ANYONE) || isAdmin(user)) {
            return true;
        }
        String domain = user.getDomain();
        return creators.contains(user.toBareJID()) || creators.contains(domain)
                || (creators.contains(LOCAL) && domain.equals(localDomain(serviceDomain)));
    }

    /** True if {@code user} may have at most {@link #maxRoomsPerUser} rooms of their own creation. */
    public boolean limits(JID user) {
        return maxRoomsPerUser > 0 && !isAdmin(user);
    }

    /** The domain of the users {@code local} means: the service's domain without its first label. */
    public static String localDomain(String serviceDomain) {
        int dot = serviceDomain.indexOf('.');
        return dot < 0 ? serviceDomain : serviceDomain.substring(dot + 1);
    }

    /** For logs and {@link ServiceConfig#toString()}. */
    public String describe() {
        return "room-creators=" + String.join(",", creators) + ", admins=" + admins.size()
                + ", max-rooms-per-user=" + (maxRoomsPerUser == 0 ? "no limit" : maxRoomsPerUser);
    }

    private static List<String> split(String text) {
        List<String> terms = new ArrayList<>();
        for (String t : text.trim().split("[,\\s]+")) {
            if (!t.isEmpty()) {
                terms.add(t);
            }
        }
        return terms;
    }

    private static String creatorTerm(String term) {
        String t = term.trim().toLowerCase(Locale.ROOT);
        if (t.equals(ANYONE) || t.equals(ADMINS) || t.equals(LOCAL)) {
            return t;
        }
        JID jid = jid("room-creators", t);
        if (jid.getResource() != null) {
            throw new IllegalArgumentException("room-creators: '" + term + "' has a resource; give a domain or a bare JID");
        }
        return jid.toBareJID();
    }

    private static String bareJid(String setting, String term) {
        JID jid = jid(setting, term.trim());
        if (jid.getNode() == null || jid.getResource() != null) {
            throw new IllegalArgumentException(setting + ": '" + term + "' is not a bare JID (user@domain)");
        }
        return jid.toBareJID();
    }

    private static JID jid(String setting, String text) {
        try {
            return new JID(text);   // stringprep: 'Alice@Example.ORG' is alice@example.org
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(setting + ": '" + text + "' is not a domain or a JID");
        }
    }
}
