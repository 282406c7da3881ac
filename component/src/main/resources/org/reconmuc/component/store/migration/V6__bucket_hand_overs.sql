-- A clean stop hands its buckets over (608392d, merged in a326623): a bucket (one of ejabberd's
-- connection slots) moving from one instance to another, offered/asked -> ready -> vacant.
CREATE TABLE reconmuc_handover (id VARCHAR(255) NOT NULL PRIMARY KEY,
    giver VARCHAR(255) NOT NULL, connection INT NOT NULL, taker VARCHAR(255),
    state VARCHAR(16) NOT NULL, asked_ms BIGINT NOT NULL);
