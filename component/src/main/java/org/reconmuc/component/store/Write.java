package org.reconmuc.component.store;

import java.time.Instant;
import java.util.Map;

/**
 * One change to the store, as rooms submit them; committed in submission order. {@code fence} is
 * the epoch of the room's lease the write was made under ({@link RoomLeases}); 0 when the service
 * runs alone and nothing is fenced. A fenced write commits only while that lease is still the
 * writer's: an instance that lost a room (paused, cut off) cannot write to it any more.
 */
sealed interface Write {
    String room();

    long fence();

    /** A groupchat message joins the room's archive. */
    record Archive(String room, long fence, ArchivedMessage message) implements Write {
    }

    /**
     * An archived message was retracted (XEP-0424) or moderated (XEP-0425) at {@code at}: its text
     * becomes its tombstone ({@code TakenBack.tombstone}), under the same stanza-id and time.
     * {@code moderatedXml} (the {@code <moderated/>} element) and {@code reason} may be null.
     * Nothing happens if the archive lacks the message.
     */
    record Tombstone(String room, long fence, String stanzaId, Instant at, String moderatedXml, String reason)
            implements Write {
    }

    /** The room's configuration, affiliations, registrations, subject or key changed: the whole record replaces the old. */
    record Save(long fence, RoomRecord record) implements Write {
        @Override
        public String room() {
            return record.jid();
        }
    }

    /**
     * One user's affiliation and reserved nickname changed (null: none): only that user's rows are
     * replaced, so a room with many members does not rewrite them all for each new one.
     */
    record Affiliation(String room, long fence, String jid, String affiliation, String reservedNick) implements Write {
    }

    /** The room was destroyed or is no longer persistent: it and its archive go. */
    record Delete(String room, long fence) implements Write {
    }

    /** A session joined the room under a nick (kept so that whoever serves the room next can tell it). */
    record OccupantIn(String room, long fence, String session, String nick) implements Write {
    }

    /** How the room shows in the service's room list (disco#items), for every instance to answer. */
    record Listing(String room, long fence, String name, boolean listed) implements Write {
    }

    /**
     * The room is given up (it was forgotten here): its lease is released once what it wrote
     * before is committed. {@code forGood}: nobody is in it (emptied, destroyed), so what its
     * occupants carry on with goes too; else (handed over with its occupants) it stays for the next owner.
     */
    record Release(String room, long fence, boolean forGood) implements Write {
    }

    /** A session left the room. */
    record OccupantOut(String room, long fence, String session) implements Write {
    }

    /**
     * An occupant's state as the room renders it (role, affiliation, presence, requirements),
     * for whoever serves the room next; null {@code state}: the occupant left. {@code startPosition}:
     * the delivery position of an occupant that has just become relaxed (it was sent nothing as such
     * yet, so the position holds before any stanza is written); null keeps the row's position.
     */
    record OccupantState(String room, long fence, String nick, String state, String startPosition) implements Write {
    }

    /** An occupant changed its nick: its row, delivery position included, goes with it. */
    record OccupantRenamed(String room, long fence, String from, String to) implements Write {
    }

    /** The XEP-0421 key of a room the store keeps no record of (a temporary room), so ids survive a move. */
    record RoomKey(String room, long fence, String occupantIdKey) implements Write {
    }

    /**
     * The configuration form of a room the store keeps no record of (a temporary room), with what
     * its features add to it (its avatar), so that its next owner serves it as it was.
     */
    record CarriedForm(String room, long fence, String form) implements Write {
    }

    /**
     * Delivery positions whose stanzas the connection had written before this commit
     * (one per journal per commit, made by the writer, never queued by rooms): relaxed occupants'
     * positions by nick (only the latest of each), and the room's fan-out watermark (0: unchanged).
     */
    record Positions(String room, long fence, Map<String, String> positions, long fannedOutUpTo)
            implements Write {
    }
}
