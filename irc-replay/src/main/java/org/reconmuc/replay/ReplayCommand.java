package org.reconmuc.replay;

import java.io.PrintStream;

/** The replay command (filled in by the replay engine). */
final class ReplayCommand {
    private ReplayCommand() {
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        err.println("replay: not implemented yet");
        return 2;
    }
}
