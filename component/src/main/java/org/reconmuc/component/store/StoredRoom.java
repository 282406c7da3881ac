package org.reconmuc.component.store;

import java.util.List;

/**
 * A persistent room as found in the store at start.
 *
 * @param record  its configuration, affiliations, registrations, subject and key
 * @param newest  its newest archived messages, oldest first (at most what was asked for)
 * @param lastSeq the sequence number of its newest archived message (0 if none): the room goes on from there
 */
public record StoredRoom(RoomRecord record, List<ArchivedMessage> newest, long lastSeq) {
    public StoredRoom {
        newest = List.copyOf(newest);
    }
}
