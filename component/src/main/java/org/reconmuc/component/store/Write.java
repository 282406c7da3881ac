package org.reconmuc.component.store;

/** One change to the store, as rooms submit them; committed in submission order. */
sealed interface Write {
    String room();

    /** A groupchat message joins the room's archive. */
    record Archive(String room, ArchivedMessage message) implements Write {
    }

    /** The room's configuration, affiliations, registrations, subject or key changed: the whole record replaces the old. */
    record Save(RoomRecord record) implements Write {
        @Override
        public String room() {
            return record.jid();
        }
    }

    /** The room was destroyed or is no longer persistent: it and its archive go. */
    record Delete(String room) implements Write {
    }
}
