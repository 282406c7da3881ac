package org.reconmuc.component.muc.rtbl;

import java.util.Collection;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.xmpp.packet.JID;

/**
 * The hashes a real-time block list names now. Written by the subscription (the reader thread),
 * read by every room's thread: a concurrent set, no lock.
 */
public final class BlockList {
    /** What a listed user is told, as Prosody's mod_muc_rtbl says it (a {@code forbidden} of type cancel). */
    public static final String REFUSAL = "You are banned from this service";
    /** The reason on the presence of an occupant removed because its hash came, as ejabberd's module gives it. */
    public static final String REMOVAL_REASON = "Banned by RTBL";

    private final Set<String> hashes = ConcurrentHashMap.newKeySet();

    /** True if {@code user}'s bare JID or its domain is listed. */
    public boolean lists(JID user) {
        return !hashes.isEmpty() && (hashes.contains(JidHashes.ofBareJid(user)) || hashes.contains(JidHashes.ofDomain(user)));
    }

    /** The node's items as fetched whole: what is not among them is unlisted (as Prosody's module). Returns the new ones. */
    Set<String> replaceAll(Collection<String> current) {
        Set<String> added = new HashSet<>(current);
        added.removeAll(hashes);
        hashes.retainAll(new HashSet<>(current));
        hashes.addAll(added);
        return added;
    }

    /** Published items: returns those not listed before. */
    Set<String> add(Collection<String> published) {
        Set<String> added = new HashSet<>();
        for (String h : published) {
            if (hashes.add(h)) {
                added.add(h);
            }
        }
        return added;
    }

    /** Retracted items are unlisted. */
    void remove(Collection<String> retracted) {
        hashes.removeAll(retracted);
    }

    public int size() {
        return hashes.size();
    }
}
