package org.reconmuc.component.muc;

/**
 * What {@code MessagePath} traces: Romeo (who made the room: its owner), Juliet and Mercutio in a
 * room (Mercutio relaxed when the first argument is {@code relaxed}), then one groupchat message
 * from Juliet, a participant — the checks a moderator skips run for her — processed between
 * {@link #begin()} and {@link #end()}. Compiled against the component's test classes of whichever
 * commit is measured, so it uses only what {@code MucBench} has offered since protocol 0.3.
 */
public final class MessagePathTarget {
    private static final String ROMEO = "romeo@example.net/a";
    private static final String JULIET = "juliet@example.net/b";

    public static void main(String[] args) {
        MucBench muc = new MucBench();
        muc.join(ROMEO, MucBench.ROOM, "Romeo");
        muc.join(JULIET, MucBench.ROOM, "Juliet");
        muc.join("mercutio@example.net/c", MucBench.ROOM, "Mercutio");
        if (args.length > 0 && args[0].equals("relaxed")) {
            muc.send("<iq from='mercutio@example.net/c' to='" + MucBench.ROOM + "' type='set' id='req'>"
                    + "<consistency-requirements xmlns='urn:reconmuc:0'><time>30</time><volume>10</volume>"
                    + "</consistency-requirements></iq>");
        }
        // A first message warms up what is made once per room (its log, its renderers), so the
        // traced one follows the path every later message takes.
        muc.say(JULIET, MucBench.ROOM, "first");
        muc.clear();
        begin();
        muc.say(JULIET, MucBench.ROOM, "Wherefore art thou, Romeo?");
        end();
        if (muc.outbox.isEmpty()) {
            throw new AssertionError("the traced message reached nobody");
        }
    }

    /** The tracer starts recording when this is entered. */
    static void begin() {
    }

    /** The tracer stops recording when this is entered. */
    static void end() {
    }
}
