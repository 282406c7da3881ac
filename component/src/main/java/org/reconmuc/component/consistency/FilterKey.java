package org.reconmuc.component.consistency;

import org.reconmuc.codec.Topics;

/**
 * What a filter entry matches on a message: a topic it is tagged with, or the nick of its
 * author. Topics are case-insensitive and a leading '#' is ignored.
 */
public record FilterKey(Kind kind, String value) {

    public enum Kind {
        TOPIC("topic"), NICK("nick");

        private final String element;

        Kind(String element) {
            this.element = element;
        }

        /** The {@code element} attribute of a {@code <filter-entry/>}. */
        public String element() {
            return element;
        }

        public static Kind fromElement(String element) {
            for (Kind k : values()) {
                if (k.element.equals(element)) {
                    return k;
                }
            }
            return null;
        }
    }

    public FilterKey {
        if (kind == null || value == null || value.isEmpty()) {
            throw new IllegalArgumentException("a filter key needs a kind and a value");
        }
    }

    /** A topic key; {@code topic} must not be empty once normalised ({@link Topics#normalize}). */
    public static FilterKey topic(String topic) {
        return new FilterKey(Kind.TOPIC, Topics.normalize(topic));
    }

    public static FilterKey nick(String nick) {
        return new FilterKey(Kind.NICK, nick);
    }
}
