package org.reconmuc.replay;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.reconmuc.replay.irc.IrcLogs;
import org.reconmuc.replay.irc.LogFile;
import org.reconmuc.replay.irc.ReplyEvaluation;

/** {@code java -jar irc-replay.jar (evaluate | replay | paper | rooms | soak | scale | fill | help) [options]}. */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) throws Exception {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
        if (args.length == 0 || args[0].equals("--help") || args[0].equals("-h") || args[0].equals("help")) {
            out.print(Help.TEXT);
            return 0;
        }
        String command = args[0];
        String[] rest = Arrays.copyOfRange(args, 1, args.length);
        switch (command) {
            case "evaluate":
                return evaluate(rest, out, err);
            case "replay":
                return ReplayCommand.run(rest, out, err);
            case "paper":
                return PaperCommand.run(rest, out, err);
            case "rooms":
                return RoomsCommand.run(rest, out, err);
            case "soak":
                return SoakCommand.run(rest, out, err);
            case "scale":
                return ScaleCommand.run(rest, out, err);
            case "fill":
                return FillCommand.run(rest, out, err);
            default:
                err.println("unknown command '" + command + "' (evaluate, replay, paper, rooms, soak, scale, fill, help)");
                return 2;
        }
    }

    static int evaluate(String[] args, PrintStream out, PrintStream err) throws Exception {
        Path logs = IrcLogs.defaultDir();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--help") || args[i].equals("-h")) {
                out.print(Help.TEXT);
                return 0;
            } else if (args[i].equals("--logs") && i + 1 < args.length) {
                logs = Path.of(args[++i]);
            } else {
                err.println("evaluate: unexpected argument '" + args[i] + "' (only --logs DIR)");
                return 2;
            }
        }
        Map<String, List<LogFile>> channels = IrcLogs.load(logs);
        out.println("Reply detection (a message addressed 'nick:' / 'nick,' replies to that nick's latest message)");
        out.println("against the gold links of " + logs + ", on the annotated lines:");
        out.println();
        out.print(ReplyEvaluation.table(ReplyEvaluation.scores(channels)));
        return 0;
    }
}
