package org.reconmuc.component.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The store's tables as its code made them before versioned migrations ({@code CREATE TABLE IF NOT
 * EXISTS} at every start), version by version, copied from the history of {@code JdbcStore}
 * (version 1 a20ddb1, 2 edf11c4, 3 5404de5, 4 eb5b71c, 5 d9c20f4, 6 a326623 up to the migrations),
 * and rows in them as each version wrote them: two rooms with their configuration, affiliations,
 * reserved nick and archive, and from version 2 their leases, an instance and occupants.
 */
final class EarlierSchemas {
    /** The last version made without migrations: a database without history is at most this one. */
    static final int LAST = 6;

    static final String LOBBY = "lobby@chat.example";
    static final String ATTIC = "attic@chat.example";
    static final Instant T0 = Instant.parse("2026-11-20T10:00:00.123456Z");

    static final RoomRecord LOBBY_RECORD = new RoomRecord(LOBBY,
            "<x xmlns='jabber:x:data' type='submit'><field var='muc#roomconfig_roomname'><value>Lobby</value></field></x>",
            "<message type='groupchat'><subject>Welcome</subject></message>", T0, "a2V5",
            Map.of("juliet@capulet.lit", "owner", "romeo@montague.lit", "member", "tybalt@capulet.lit", "outcast"),
            Map.of("romeo@montague.lit", "Romeo"));
    static final RoomRecord ATTIC_RECORD = new RoomRecord(ATTIC, "<x xmlns='jabber:x:data' type='submit'/>", null, null,
            null, Map.of("nurse@capulet.lit", "admin"), Map.of());
    static final List<ArchivedMessage> LOBBY_MESSAGES = List.of(message(1, "Juliet", "juliet@capulet.lit"),
            message(2, "Romeo", null), message(3, "Juliet", "juliet@capulet.lit"));
    static final List<ArchivedMessage> ATTIC_MESSAGES = List.of(message(7, "Nurse", "nurse@capulet.lit"));
    static final Map<String, String> LOBBY_SESSIONS = Map.of("juliet@capulet.lit/balcony", "Juliet",
            "romeo@montague.lit/orchard", "Romeo");
    /** The lease owners as version 2 on wrote them: the attic's lease was given back. */
    static final Map<String, String> OWNERS = new LinkedHashMap<>();

    static {
        OWNERS.put(ATTIC, null);
        OWNERS.put(LOBBY, "i-a");
    }

    private EarlierSchemas() {
    }

    private static ArchivedMessage message(long seq, String nick, String sender) {
        return new ArchivedMessage(seq, "id-" + seq, T0.plusSeconds(60 * seq), nick, sender,
                "<message xmlns=\"jabber:client\" type=\"groupchat\"><body>m" + seq + " &amp; more</body></message>");
    }

    /** The statements the store ran at {@code version}; {@code text} is the kind's type for any-length text. */
    static List<String> statements(int version, String text) {
        List<String> s = new ArrayList<>();
        s.add("CREATE TABLE IF NOT EXISTS reconmuc_room (jid VARCHAR(3071) NOT NULL PRIMARY KEY,"
                + " config " + text + " NOT NULL, subject " + text + ", subject_at_us BIGINT,"
                + " occupant_id_key VARCHAR(64), saved_at_us BIGINT NOT NULL)");
        s.add("CREATE TABLE IF NOT EXISTS reconmuc_affiliation (room VARCHAR(3071) NOT NULL,"
                + " jid VARCHAR(3071) NOT NULL, affiliation VARCHAR(16) NOT NULL, PRIMARY KEY (room, jid))");
        s.add("CREATE TABLE IF NOT EXISTS reconmuc_registration (room VARCHAR(3071) NOT NULL,"
                + " jid VARCHAR(3071) NOT NULL, nick VARCHAR(1023) NOT NULL, PRIMARY KEY (room, jid))");
        s.add("CREATE TABLE IF NOT EXISTS reconmuc_message (room VARCHAR(3071) NOT NULL, seq BIGINT NOT NULL,"
                + " stanza_id VARCHAR(255) NOT NULL, at_us BIGINT NOT NULL, nick VARCHAR(1023) NOT NULL,"
                + " sender VARCHAR(3071), xml " + text + " NOT NULL, PRIMARY KEY (room, seq))");
        s.add("CREATE INDEX IF NOT EXISTS reconmuc_message_id ON reconmuc_message (room, stanza_id)");
        s.add("CREATE INDEX IF NOT EXISTS reconmuc_message_at ON reconmuc_message (room, at_us)");
        if (version >= 2) {
            s.add("CREATE TABLE IF NOT EXISTS reconmuc_lease (room VARCHAR(3071) NOT NULL PRIMARY KEY,"
                    + " owner VARCHAR(255), epoch BIGINT NOT NULL, expires_ms BIGINT NOT NULL"
                    + (version >= 4 ? ", name VARCHAR(1023), listed INT DEFAULT 0 NOT NULL)" : ")"));
            s.add("CREATE TABLE IF NOT EXISTS reconmuc_instance (id VARCHAR(255) NOT NULL PRIMARY KEY,"
                    + " heartbeat_ms BIGINT NOT NULL, started_ms BIGINT NOT NULL"
                    + (version >= 3 ? ", connections INT NOT NULL)" : ")"));
        }
        if (version >= 6) {
            s.add("CREATE TABLE IF NOT EXISTS reconmuc_handover (id VARCHAR(255) NOT NULL PRIMARY KEY,"
                    + " giver VARCHAR(255) NOT NULL, connection INT NOT NULL, taker VARCHAR(255),"
                    + " state VARCHAR(16) NOT NULL, asked_ms BIGINT NOT NULL)");
        }
        if (version >= 2) {
            s.add("CREATE TABLE IF NOT EXISTS reconmuc_occupant (room VARCHAR(3071) NOT NULL,"
                    + " session VARCHAR(3071) NOT NULL, nick VARCHAR(1023) NOT NULL, PRIMARY KEY (room, session))");
        }
        if (version >= 5) {
            s.add("CREATE TABLE IF NOT EXISTS reconmuc_occupant_state (room VARCHAR(3071) NOT NULL,"
                    + " nick VARCHAR(1023) NOT NULL, state " + text + " NOT NULL, position " + text + ","
                    + " PRIMARY KEY (room, nick))");
            s.add("CREATE TABLE IF NOT EXISTS reconmuc_room_state (room VARCHAR(3071) NOT NULL PRIMARY KEY,"
                    + " fanned_out_seq BIGINT DEFAULT 0 NOT NULL, occupant_id_key VARCHAR(64))");
        }
        return s;
    }

    /** Makes the tables of {@code version} as its code did. */
    static void make(Connection c, int version, String text) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (String sql : statements(version, text)) {
                s.execute(sql);
            }
        }
    }

    /** Writes the rows, into the tables of {@code version} (made by {@link #make} or migrated to it). */
    static void fill(Connection c, int version) throws SQLException {
        for (RoomRecord r : List.of(LOBBY_RECORD, ATTIC_RECORD)) {
            insert(c, "reconmuc_room (jid, config, subject, subject_at_us, occupant_id_key, saved_at_us)", r.jid(),
                    r.config(), r.subject(), r.subjectAt() == null ? null : JdbcStore.micros(r.subjectAt()),
                    r.occupantIdKey(), JdbcStore.micros(T0));
            for (Map.Entry<String, String> a : r.affiliations().entrySet()) {
                insert(c, "reconmuc_affiliation (room, jid, affiliation)", r.jid(), a.getKey(), a.getValue());
            }
            for (Map.Entry<String, String> n : r.registrations().entrySet()) {
                insert(c, "reconmuc_registration (room, jid, nick)", r.jid(), n.getKey(), n.getValue());
            }
            for (ArchivedMessage m : r.jid().equals(LOBBY) ? LOBBY_MESSAGES : ATTIC_MESSAGES) {
                insert(c, "reconmuc_message (room, seq, stanza_id, at_us, nick, sender, xml)", r.jid(), m.seq(),
                        m.stanzaId(), JdbcStore.micros(m.at()), m.nick(), m.sender(), m.xml());
            }
        }
        if (version >= 2) {
            long expires = T0.toEpochMilli() + 30_000;
            if (version >= 4) {
                insert(c, "reconmuc_lease (room, owner, epoch, expires_ms, name, listed)", LOBBY, "i-a", 3L, expires,
                        "Lobby", 1L);
                insert(c, "reconmuc_lease (room, owner, epoch, expires_ms, name, listed)", ATTIC, null, 1L, 0L, null, 0L);
            } else {
                insert(c, "reconmuc_lease (room, owner, epoch, expires_ms)", LOBBY, "i-a", 3L, expires);
                insert(c, "reconmuc_lease (room, owner, epoch, expires_ms)", ATTIC, null, 1L, 0L);
            }
            if (version >= 3) {
                insert(c, "reconmuc_instance (id, heartbeat_ms, started_ms, connections)", "i-a", T0.toEpochMilli(),
                        T0.toEpochMilli() - 60_000, 2L);
            } else {
                insert(c, "reconmuc_instance (id, heartbeat_ms, started_ms)", "i-a", T0.toEpochMilli(),
                        T0.toEpochMilli() - 60_000);
            }
            for (Map.Entry<String, String> o : LOBBY_SESSIONS.entrySet()) {
                insert(c, "reconmuc_occupant (room, session, nick)", LOBBY, o.getKey(), o.getValue());
            }
        }
        if (version >= 5) {
            insert(c, "reconmuc_occupant_state (room, nick, state, position)", LOBBY, "Juliet", "<juliet role='moderator'/>",
                    "<position cursor='3'/>");
            insert(c, "reconmuc_occupant_state (room, nick, state, position)", LOBBY, "Romeo", "<romeo role='participant'/>",
                    null);
            insert(c, "reconmuc_room_state (room, fanned_out_seq, occupant_id_key)", LOBBY, 3L, null);
        }
        if (version >= 6) {
            insert(c, "reconmuc_handover (id, giver, connection, taker, state, asked_ms)", "h-1", "i-a", 1L, "i-b", "asked",
                    T0.toEpochMilli());
        }
        if (!c.getAutoCommit()) {
            c.commit();
        }
    }

    private static void insert(Connection c, String into, Object... values) throws SQLException {
        String marks = String.join(", ", Collections.nCopies(values.length, "?"));
        try (PreparedStatement p = c.prepareStatement("INSERT INTO " + into + " VALUES (" + marks + ")")) {
            for (int i = 0; i < values.length; i++) {
                if (values[i] == null) {
                    p.setNull(i + 1, Types.NULL);
                } else if (values[i] instanceof Long l) {
                    p.setLong(i + 1, l);
                } else {
                    p.setString(i + 1, (String) values[i]);
                }
            }
            p.executeUpdate();
        }
    }
}
