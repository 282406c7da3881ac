-- The room directory across instances (eb5b71c): each room's name and whether it is listed,
-- written by its owner under its lease. A lease taken before it is unlisted until its owner
-- writes the listing (at its next claim).
ALTER TABLE reconmuc_lease ADD COLUMN name VARCHAR(1023);
ALTER TABLE reconmuc_lease ADD COLUMN listed INT DEFAULT 0 NOT NULL;
