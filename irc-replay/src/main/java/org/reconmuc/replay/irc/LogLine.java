package org.reconmuc.replay.irc;

/**
 * One line of an IRC log, whatever its format.
 *
 * @param index   0-based line number in its file (the numbering of the gold annotations)
 * @param kind    what the line is
 * @param seconds seconds since the start of the file's first day (day roll-overs added; dated
 *                files count from their first date); lines without a time stamp inherit the
 *                previous line's
 * @param nick    who speaks, acts, joins, leaves or changes nick; null for other system lines
 * @param text    the message or action text (for system lines, the rest of the line)
 * @param newNick for {@link Kind#NICK}: the new nick; else null
 */
public record LogLine(int index, Kind kind, long seconds, String nick, String text, String newNick) {

    public enum Kind {
        /** {@code <nick> text}: a chat message. */
        MESSAGE,
        /** {@code * nick does something}: a /me action. */
        ACTION,
        /** {@code -nick- text}: a notice (bots such as ubottu or eval). */
        NOTICE,
        JOIN,
        /** part, quit, "left the room". */
        LEAVE,
        /** {@code a is now known as b}. */
        NICK,
        /** mode changes, topic changes, away notes, old-style emotes ({@code === nick smiles}). */
        SYSTEM,
        /** an empty or unparseable line (kept so line numbers stay right). */
        OTHER;

        /** Lines a person wrote into the channel: the ones a replay sends. */
        public boolean spoken() {
            return this == MESSAGE || this == ACTION;
        }
    }

    public boolean spoken() {
        return kind.spoken();
    }
}
