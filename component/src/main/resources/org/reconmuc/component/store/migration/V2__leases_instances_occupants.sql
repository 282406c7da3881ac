-- Room leases and a fence for several instances (edf11c4): who serves each room under which
-- epoch, the instances' heartbeats, and the sessions in each room for whoever serves it next.
CREATE TABLE reconmuc_lease (room VARCHAR(3071) NOT NULL PRIMARY KEY,
    owner VARCHAR(255), epoch BIGINT NOT NULL, expires_ms BIGINT NOT NULL);
CREATE TABLE reconmuc_instance (id VARCHAR(255) NOT NULL PRIMARY KEY,
    heartbeat_ms BIGINT NOT NULL, started_ms BIGINT NOT NULL);
CREATE TABLE reconmuc_occupant (room VARCHAR(3071) NOT NULL,
    session VARCHAR(3071) NOT NULL, nick VARCHAR(1023) NOT NULL, PRIMARY KEY (room, session));
