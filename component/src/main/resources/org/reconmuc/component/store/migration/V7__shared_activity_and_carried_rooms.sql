-- Several instances (issue 44): XEP-0437 subscribers in the store, written by the instance a
-- subscription's presence reached and read by every instance, so that the rooms of each notify
-- them; and a temporary room's configuration form with what its features add (its avatar),
-- carried to its next owner as reconmuc_room.config is for a persistent one.
CREATE TABLE reconmuc_rai_subscriber (session VARCHAR(3071) NOT NULL PRIMARY KEY, since_ms BIGINT NOT NULL);
ALTER TABLE reconmuc_room_state ADD COLUMN config ${text};
