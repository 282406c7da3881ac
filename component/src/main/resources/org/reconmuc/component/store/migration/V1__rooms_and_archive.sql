-- Durable rooms (a20ddb1, merge of a7539de): persistent rooms, their affiliations and reserved
-- nicks, and the message archive. ${text} is the type of any-length text (H2: CHARACTER LARGE OBJECT).
CREATE TABLE reconmuc_room (jid VARCHAR(3071) NOT NULL PRIMARY KEY,
    config ${text} NOT NULL, subject ${text}, subject_at_us BIGINT,
    occupant_id_key VARCHAR(64), saved_at_us BIGINT NOT NULL);
CREATE TABLE reconmuc_affiliation (room VARCHAR(3071) NOT NULL,
    jid VARCHAR(3071) NOT NULL, affiliation VARCHAR(16) NOT NULL, PRIMARY KEY (room, jid));
CREATE TABLE reconmuc_registration (room VARCHAR(3071) NOT NULL,
    jid VARCHAR(3071) NOT NULL, nick VARCHAR(1023) NOT NULL, PRIMARY KEY (room, jid));
CREATE TABLE reconmuc_message (room VARCHAR(3071) NOT NULL, seq BIGINT NOT NULL,
    stanza_id VARCHAR(255) NOT NULL, at_us BIGINT NOT NULL, nick VARCHAR(1023) NOT NULL,
    sender VARCHAR(3071), xml ${text} NOT NULL, PRIMARY KEY (room, seq));
CREATE INDEX reconmuc_message_id ON reconmuc_message (room, stanza_id);
CREATE INDEX reconmuc_message_at ON reconmuc_message (room, at_us);
