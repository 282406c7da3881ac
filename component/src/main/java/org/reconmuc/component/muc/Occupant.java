package org.reconmuc.component.muc;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.reconmuc.component.consistency.Reader;
import org.reconmuc.component.jid.OccupantJid;
import org.reconmuc.component.jid.RealJid;
import org.reconmuc.component.limits.TokenBucket;
import org.reconmuc.component.protocol.PresenceLevel;
import org.reconmuc.component.relaxed.Recipient;
import org.xmpp.packet.Presence;

/**
 * Someone present in a room under one nick. One user may be present from several of its
 * sessions (same bare JID, same nick: XEP-0045 multi-session nicks); each gets every stanza.
 */
public final class Occupant implements Recipient<Occupant> {
    private OccupantJid jid;
    private final RealJid bareJid;
    /** Real full JID of each session, with the presence it last sent (payload only). */
    private final Map<RealJid, Presence> sessions = new LinkedHashMap<>();
    private final Collection<RealJid> sessionsView = Collections.unmodifiableSet(sessions.keySet());
    private Role role;
    /**
     * Whether the others in the room may hold this occupant's presence as available, so its changes
     * and its leaving go to all of them (muc#roomconfig_presencebroadcast; a newcomer to a large room
     * is not sent it, but is told when it leaves).
     */
    private boolean shownToOthers;
    /** The session shown as the real JID; survives the last session's departure for the goodbye presence. */
    private RealJid shownSession;
    private final TokenBucket rateLimiter;
    /** Whose presences it asked for (kept by {@link PresenceLevels}, read for every presence the room sends). */
    private PresenceLevel presenceLevel = PresenceLevel.ALL;
    /** Relaxed-consistency state, or null for a standard occupant. Survives nick changes. */
    private Reader<Occupant> reader;
    /** The room's newest message when a session of it last entered (joined, or joined again): see {@link RoomPresence#removeGhost}. */
    private long lastEntryAt;

    Occupant(OccupantJid jid, RealJid session, Presence presence, Role role, TokenBucket rateLimiter) {
        this.jid = jid;
        this.bareJid = session.bare();
        this.role = role;
        this.rateLimiter = rateLimiter;
        sessions.put(session, presence);
        this.shownSession = session;
    }

    public OccupantJid jid() {
        return jid;
    }

    @Override
    public String nick() {
        return jid.nick();
    }

    void rename(OccupantJid newJid) {
        this.jid = newJid;
    }

    public RealJid bareJid() {
        return bareJid;
    }

    public Role role() {
        return role;
    }

    public void setRole(Role role) {
        this.role = role;
    }

    public boolean shownToOthers() {
        return shownToOthers;
    }

    void setShownToOthers(boolean shown) {
        this.shownToOthers = shown;
    }

    @Override
    public Reader<Occupant> reader() {
        return reader;
    }

    @Override
    public void setReader(Reader<Occupant> reader) {
        this.reader = reader;
    }

    public PresenceLevel presenceLevel() {
        return presenceLevel;
    }

    public void setPresenceLevel(PresenceLevel level) {
        this.presenceLevel = level;
    }

    public TokenBucket rateLimiter() {
        return rateLimiter;
    }

    /** The sessions, in the order they joined: a view, not a copy (it is read for every stanza sent). */
    @Override
    public Collection<RealJid> sessions() {
        return sessionsView;
    }

    public int sessionCount() {
        return sessions.size();
    }

    void putSession(RealJid session, Presence presence) {
        sessions.put(session, presence);
    }

    /** A session of this occupant entered the room when its newest message was {@code head}. */
    void entered(long head) {
        lastEntryAt = head;
    }

    long lastEntryAt() {
        return lastEntryAt;
    }

    void removeSession(RealJid session) {
        sessions.remove(session);
        if (session.equals(shownSession) && !sessions.isEmpty()) {
            shownSession = sessions.keySet().iterator().next();
        }
    }

    /** The presence shown to others: the one most recently sent by any session. */
    public Presence presence() {
        Presence last = null;
        for (Presence p : sessions.values()) {
            last = p;
        }
        return last;
    }

    /** The real JID others may see (the first session's), XEP-0045 §7.2.4. */
    public RealJid shownRealJid() {
        return shownSession;
    }
}
