package org.reconmuc.joom.model;

/** How the room delivers: by the user's requirements, or as a plain MUC. */
public enum Mode {
    /** The room supports ReConMUC: the active topic at once, the rest in compressed batches. */
    RELAXED("relaxed"),
    /** A plain MUC room: every message at once; Joom filters the topics itself. */
    STANDARD("standard");

    private final String words;

    Mode(String words) {
        this.words = words;
    }

    public String words() {
        return words;
    }
}
