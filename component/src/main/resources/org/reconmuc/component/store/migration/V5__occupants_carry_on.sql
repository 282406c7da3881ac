-- Occupants carry on when their room moves (90b6d8f, merged in d9c20f4): each occupant's state
-- and delivery position, and how far the room's messages were handed to the server.
CREATE TABLE reconmuc_occupant_state (room VARCHAR(3071) NOT NULL,
    nick VARCHAR(1023) NOT NULL, state ${text} NOT NULL, position ${text},
    PRIMARY KEY (room, nick));
CREATE TABLE reconmuc_room_state (room VARCHAR(3071) NOT NULL PRIMARY KEY,
    fanned_out_seq BIGINT DEFAULT 0 NOT NULL, occupant_id_key VARCHAR(64));
