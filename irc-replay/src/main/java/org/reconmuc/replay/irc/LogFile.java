package org.reconmuc.replay.irc;

import java.nio.file.Path;
import java.util.List;

/** One log file of a channel, parsed, with its gold reply links if it has an annotation file. */
public record LogFile(String channel, Path path, List<LogLine> lines, GoldLinks gold) {
}
