package org.reconmuc.component.muc;

import java.util.LinkedHashMap;
import java.util.Map;
import org.dom4j.DocumentException;
import org.dom4j.Element;
import org.reconmuc.component.jid.RealJid;
import org.reconmuc.component.protocol.Dom4jText;
import org.reconmuc.component.relaxed.MessageLog;
import org.reconmuc.component.store.ArchivedMessage;
import org.reconmuc.component.store.RoomJournal;
import org.reconmuc.component.store.RoomRecord;
import org.reconmuc.component.store.StoredRoom;
import org.reconmuc.component.transport.OutgoingStanza;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xmpp.packet.JID;
import org.xmpp.packet.Message;

/**
 * A persistent room in the store (XEP-0045 {@code muc#roomconfig_persistentroom}): its record
 * (configuration, affiliations, registrations, subject, occupant-id key) is written whenever it
 * changes, before the room sends anything that announces the change; its groupchat messages join
 * the archive as they are logged. A room that becomes persistent writes its history so far; one
 * that stops being persistent, or is destroyed, is deleted. A temporary room writes nothing but,
 * when it is served under a lease (several instances), its configuration form with what its
 * features add (its avatar) for its next owner ({@link #carriedOn}).
 */
public final class RoomPersistence {
    private static final Logger LOG = LoggerFactory.getLogger(RoomPersistence.class);

    private final Room room;
    /** The store holds this room (it was persistent when last written). */
    private boolean stored;

    RoomPersistence(Room room) {
        this.room = room;
    }

    private RoomJournal journal() {
        return room.context().journal();
    }

    /** True if the archive of this room is in the store (queries go there, not to the in-memory log). */
    public boolean archivedInStore() {
        return stored;
    }

    /** Whether the store's archive takes the room's messages: a stored room that keeps an archive ({@link Room#archiving}). */
    public boolean archives() {
        return stored && room.archiving();
    }

    /**
     * Configuration, affiliations, registrations or subject changed: the record is written now,
     * so that whatever announces the change afterwards leaves only once it is committed (the
     * journal holds it). A room that becomes persistent writes its history so far; one that stops
     * being persistent is deleted.
     */
    public void recordChanged() {
        if (!journal().durable()) {
            return;
        }
        boolean persistent = room.persistent() && !room.destroyed();
        if (persistent) {
            journal().save(record());
            if (!stored) {
                stored = true;
                MessageLog<Occupant> history = room.history();
                for (long seq = Math.max(1, history.head() - history.capacity() + 1); seq <= history.head(); seq++) {
                    MessageLog.Entry<Occupant> e = history.get(seq);
                    if (e != null) {
                        appended(e);
                    }
                }
            }
        } else if (stored) {
            journal().delete();
            stored = false;
        }
        if (!persistent && !room.destroyed() && journal().fenced()) {
            journal().carriedForm(form().asXML());
        }
    }

    /**
     * One user's affiliation or reserved nickname changed: a stored room writes that user's rows
     * alone (an invitation into a members-only room adds one row, not the whole table again);
     * otherwise as {@link #recordChanged}.
     */
    public void affiliationChanged(RealJid user) {
        if (!journal().durable()) {
            return;
        }
        if (!stored || !room.persistent() || room.destroyed()) {
            recordChanged();
            return;
        }
        RealJid bare = user.bare();
        Affiliation affiliation = room.affiliationOf(bare);
        journal().affiliation(bare.toString(), affiliation == Affiliation.NONE ? null : affiliation.xmlValue(),
                room.registration().nickOf(bare));
    }

    /** The room is being destroyed: it leaves the store before anyone is told. */
    void destroying() {
        if (stored) {
            journal().delete();
            stored = false;
        }
    }

    /** A groupchat message joined the room's log: a persistent, logged room archives it. */
    public void appended(MessageLog.Entry<Occupant> entry) {
        if (archives()) {
            JID from = entry.broadcast().getFrom();
            journal().archive(new ArchivedMessage(entry.seq(), entry.stanzaId(), entry.at(),
                    from == null || from.getResource() == null ? "" : from.getResource(),
                    entry.author() == null ? null : entry.author().bareJid().toString(), entry.broadcast().toXML()));
        }
    }

    /** A message was retracted or moderated: a persistent, logged room's archive keeps its tombstone instead. */
    public void tombstone(String stanzaId, java.time.Instant at, Element moderated, String reason) {
        if (archives()) {
            journal().tombstone(stanzaId, at, moderated == null ? null : moderated.asXML(), reason);
        }
    }

    /**
     * While the store cannot commit, a persistent room refuses new messages at once (nobody
     * could see them until it recovers) instead of letting its senders wait without a word.
     */
    public boolean refusesMessages() {
        return stored && !journal().available();
    }

    /** The refusal for a message sent while the store is down: ahead of what the room holds. */
    public void refuse(Message message) {
        org.xmpp.packet.Packet error = StanzaErrors.reply(message, StanzaErrors.Condition.RESOURCE_CONSTRAINT,
                "The room's archive is unavailable: your message was not delivered. Try again later.");
        if (error != null) {
            journal().sendNow(OutgoingStanza.of(error));
        }
    }

    private RoomRecord record() {
        Map<String, String> affiliations = new LinkedHashMap<>();
        room.affiliations().forEach((jid, a) -> affiliations.put(jid.toString(), a.xmlValue()));
        Map<String, String> registrations = new LinkedHashMap<>();
        room.registration().reservations().forEach((jid, nick) -> registrations.put(jid.toString(), nick));
        OccupantIds ids = room.occupantIds();
        return new RoomRecord(room.jid().toString(), form().asXML(),
                room.subject() == null ? null : room.subject().toXML(), room.subjectSetAt(),
                ids == null ? null : ids.key(), affiliations, registrations);
    }

    /** The room's configuration form as it is stored, with what the features keep in it. */
    private Element form() {
        Element config = RoomConfigForm.render(room.config(), room.configLimits());
        // What a feature keeps (XEP-0486: the room's vCard) rides in the form, whose reader reads only fields.
        room.fire(RoomEvent.STORING, new RoomEvent.Storing(room, config));
        return config;
    }

    /**
     * A temporary room taken over from its last owner (several instances) gets the configuration
     * it had there, and what its features kept in the form ({@link RoomEvent#RESTORING}): it stays
     * temporary. Its subject is not carried.
     */
    void carriedOn(String storedForm) {
        RoomConfig config = configFrom(storedForm);
        if (config != null) {
            room.restore(config.with(PersistentOption.PERSISTENT, false), null, null, null);
        }
    }

    /**
     * The configuration a stored form says, within today's limits, as the features leave it
     * ({@link RoomEvent#RESTORING}); null if the form is unreadable.
     */
    private RoomConfig configFrom(String storedForm) {
        RoomConfig.Limits limits = room.configLimits();
        RoomConfig defaults = RoomConfig.defaults(room.config().options(), limits);
        try {
            Element form = Dom4jText.parse(storedForm);
            RoomConfig config = RoomConfigForm.read(defaults, form, limits.unbounded()).withinLimits(limits);
            return room.fire(RoomEvent.RESTORING, new RoomEvent.Restoring(room, config, form)).config();
        } catch (DocumentException | IllegalArgumentException e) {
            LOG.warn("room {}: its stored configuration is unreadable ({})", room.jid(), e.getMessage());
            return null;
        }
    }

    /**
     * Gives a room created at start the state it had: configuration (within today's limits),
     * affiliations, registrations, subject, occupant-id key, and its newest messages as history,
     * numbered as before so the archive goes on where it stopped.
     */
    void restore(StoredRoom stored) {
        RoomRecord r = stored.record();
        RoomConfig config = configFrom(r.config());
        if (config == null) {
            LOG.warn("room {}: it comes back persistent with defaults", r.jid());
            RoomConfig defaults = RoomConfig.defaults(room.config().options(), room.configLimits());
            config = room.fire(RoomEvent.RESTORING, new RoomEvent.Restoring(room, defaults, null)).config();
        }
        Message subject = null;
        if (r.subject() != null) {
            try {
                subject = new Message(Dom4jText.parse(r.subject()));
            } catch (DocumentException e) {
                LOG.warn("room {}: its stored subject is unreadable; dropped", r.jid());
            }
        }
        OccupantIds ids = r.occupantIdKey() == null ? null : OccupantIds.withKey(r.occupantIdKey());
        room.restore(config, subject, subject == null ? null : r.subjectAt(), ids);
        r.affiliations().forEach((jid, a) -> Affiliation.parse(a).ifPresent(
                affiliation -> room.affiliations().put(new RealJid(new JID(jid)).bare(), affiliation)));
        r.registrations().forEach((jid, nick) -> {
            RealJid user = new RealJid(new JID(jid)).bare();
            // A reservation outlives no affiliation (§17.4); older stores kept those of outcasts.
            if (room.affiliationOf(user).atLeast(Affiliation.MEMBER)) {
                room.registration().reserve(user, nick);
            }
        });
        MessageLog<Occupant> history = room.history();
        for (ArchivedMessage m : stored.newest()) {
            try {
                Element e = Dom4jText.parse(m.xml());
                history.restore(m.seq(), m.at(), new Message(e), m.stanzaId(), authorOf(m));
            } catch (DocumentException e) {
                LOG.warn("room {}: archived message {} is unreadable; left out of the history", r.jid(), m.stanzaId());
            }
        }
        history.restoreHead(stored.lastSeq());
        room.consistency().restoredUpTo(history.head());
        this.stored = true;
    }

    /** Who wrote an archived message, so that only they may take it back (reconmuc.md §5.14 rule 4). */
    private static JID authorOf(ArchivedMessage m) {
        try {
            return m.sender() == null ? null : new JID(m.sender()).asBareJID();
        } catch (IllegalArgumentException unreadable) {
            return null;
        }
    }
}
