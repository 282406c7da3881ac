package org.reconmuc.replay;

/** The --help text. */
final class Help {
    static final String TEXT = "irc-replay: evaluate reply detection on real IRC logs, and replay them into one room\n"
            + "\nUsage: java -jar irc-replay.jar evaluate [--logs DIR]\n"
            + "       java -jar irc-replay.jar replay [options] SCENARIO...\n";

    private Help() {
    }
}
