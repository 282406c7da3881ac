-- Several instances, one service (5404de5): how many connections to the server each instance
-- holds, so that whoever adopts a dead one opens as many. An instance written before it had one.
ALTER TABLE reconmuc_instance ADD COLUMN connections INT DEFAULT 1 NOT NULL;
