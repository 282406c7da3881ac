package org.reconmuc.benchmarks;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import org.reconmuc.codec.batch.DeflateStream;
import org.reconmuc.component.consistency.Aggregation;
import org.reconmuc.component.relaxed.DeflateStreams;
import org.reconmuc.component.relaxed.MessageLog;

/**
 * Bytes per message, deterministic (no timing): each message sent on its own vs inside a batch of
 * 10 / 30 / 60 in each form (forwarded plain or deflated on its own; compact plain or in one
 * session's deflate stream), over the same real IRC lines as
 * {@link BatchBenchmark}. Payload is the UTF-8 size of the serialised stanza the component
 * writes; wire bytes add a TCP/IP header per segment as on a 1500-byte-MTU link (DESIGN.md "Where
 * the bandwidth saving really comes from"): 52 bytes (IPv4 20 + TCP 20 + timestamps 12) per
 * segment of at most 1448 payload bytes, each stanza in its own segment(s) — the standard
 * broadcast case, where messages are seconds apart and Nagle has nothing to coalesce. TLS record
 * overhead and the server's rewriting of the stanza for the client's stream are not modelled.
 *
 * <p>{@code java -cp benchmarks/target/benchmarks.jar org.reconmuc.benchmarks.BatchSizeReport}
 */
public final class BatchSizeReport {
    static final int HEADER = 52;
    static final int MSS = 1448;
    static final int[] SIZES = {10, 30, 60};

    private BatchSizeReport() {
    }

    static long wire(long payload) {
        long segments = Math.max(1, (payload + MSS - 1) / MSS);
        return payload + HEADER * segments;
    }

    static int bytes(String xml) {
        return xml.getBytes(StandardCharsets.UTF_8).length;
    }

    public static void main(String[] args) {
        List<IrcCorpus.Line> lines = IrcCorpus.load(BatchBenchmark.LINES_PER_CHANNEL);
        BenchRoom room = new BenchRoom(lines.size());
        List<MessageLog.Entry<Occupant>> history = room.logAll(lines);
        System.out.printf(Locale.ROOT, "Corpus: %d real IRC lines (6 channels x %d, interleaved) from %s%n",
                history.size(), BatchBenchmark.LINES_PER_CHANNEL, IrcCorpus.directory());
        long bodyBytes = 0;
        for (IrcCorpus.Line l : lines) {
            bodyBytes += l.body().getBytes(StandardCharsets.UTF_8).length;
        }
        long forwardedBytes = 0;
        for (MessageLog.Entry<Occupant> e : history) {
            forwardedBytes += bytes(e.forwardedXml(BenchRoom.ROOM));
        }
        System.out.printf(Locale.ROOT, "Mean body %.1f B; mean cached <forwarded/> item %.1f B%n",
                (double) bodyBytes / history.size(), (double) forwardedBytes / history.size());
        System.out.println();
        System.out.println("Bytes per message (mean over every full batch of the corpus); ratios against one-by-one standard");
        System.out.println("| batch | form | payload B/msg | wire B/msg | payload ratio | wire ratio |");
        System.out.println("|---:|---|---:|---:|---:|---:|");
        for (int k : SIZES) {
            long n = 0;
            long oneP = 0;
            long oneW = 0;
            long delP = 0;
            long delW = 0;
            long plainP = 0;
            long plainW = 0;
            long[] defP = new long[3];
            long[] defW = new long[3];
            int[] levels = {1, BatchBenchmark.DEFLATE_LEVEL, 9};
            long compactP = 0;
            long compactW = 0;
            long streamP = 0;
            long streamW = 0;
            // One session's stream over the whole corpus, as a relaxed occupant receives it.
            BenchRoom streamRoom = new BenchRoom(lines.size());
            List<MessageLog.Entry<Occupant>> streamLog = streamRoom.logAll(lines);
            for (int from = 0; from + k <= history.size(); from += k) {
                List<MessageLog.Entry<Occupant>> batch = history.subList(from, from + k);
                for (MessageLog.Entry<Occupant> e : batch) {
                    int b = bytes(BenchRoom.standard(e));
                    oneP += b;
                    oneW += wire(b);
                }
                for (String delayed : room.flush(Aggregation.NONE, batch)) {
                    int d = bytes(delayed);
                    delP += d;
                    delW += wire(d);
                }
                int p = bytes(room.batch(Aggregation.PLAIN, batch));
                plainP += p;
                plainW += wire(p);
                for (int l = 0; l < levels.length; l++) {
                    int c = bytes(levels[l] == BatchBenchmark.DEFLATE_LEVEL ? room.batch(Aggregation.DEFLATE, batch)
                            : BatchBenchmark.deflateBatchAtLevel(batch, levels[l]));
                    defP[l] += c;
                    defW[l] += wire(c);
                }
                int c = bytes(room.batch(Aggregation.COMPACT, batch));
                compactP += c;
                compactW += wire(c);
                int d = bytes(streamRoom.batch(Aggregation.COMPACT_DEFLATE, streamLog.subList(from, from + k)));
                streamP += d;
                streamW += wire(d);
                n += k;
            }
            row(k, "one by one (standard)", oneP, oneW, n, oneP, oneW);
            row(k, "one by one, delayed (no aggregation)", delP, delW, n, oneP, oneW);
            row(k, "plain batch", plainP, plainW, n, oneP, oneW);
            for (int l = 0; l < levels.length; l++) {
                row(k, "deflate batch, level " + levels[l], defP[l], defW[l], n, oneP, oneW);
            }
            row(k, "compact batch", compactP, compactW, n, oneP, oneW);
            row(k, "compact, deflate stream (level " + BatchBenchmark.DEFLATE_LEVEL + ")", streamP, streamW, n, oneP, oneW);
        }
        windows(lines);
        restarts(lines);
    }

    /**
     * What starting a live stream anew costs (reconmuc.md §5.9 rule 8.4: an entry by someone who
     * could not read in the archive what the stream holds): one session's {@code compact-deflate-live}
     * stream over the corpus, batches of 1 / 6 / 30 messages (the last live), started anew every
     * J messages, against never.
     */
    private static void restarts(List<IrcCorpus.Line> lines) {
        System.out.println();
        System.out.println("Live stream started anew every J messages (an entry into an unlogged room), against never (level "
                + BatchBenchmark.DEFLATE_LEVEL + ", 32-KiB window)");
        System.out.println("| batch | started anew every | stanza B/msg | ratio |");
        System.out.println("|---:|---|---:|---:|");
        for (int k : new int[] {1, 6, 30}) {
            long neverStanza = 0;
            for (int every : new int[] {Integer.MAX_VALUE, 180, 60, 30}) {
                BenchRoom room = new BenchRoom(lines.size());
                List<MessageLog.Entry<Occupant>> log = room.logAll(lines);
                long stanza = 0;
                long n = 0;
                for (int from = 0; from + k <= log.size(); from += k) {
                    if (from > 0 && from / every != (from - k) / every) {
                        room.startStreamsAnew();
                    }
                    String batch = room.sendLive(Aggregation.COMPACT_DEFLATE_LIVE, BenchRoom.RECIPIENT, log.subList(from, from + k))
                            .get(0).xml();
                    room.endTurn();
                    stanza += bytes(batch);
                    n += k;
                }
                if (every == Integer.MAX_VALUE) {
                    neverStanza = stanza;
                }
                System.out.printf(Locale.ROOT, "| %d | %s | %.1f | %.1f %% |%n", k,
                        every == Integer.MAX_VALUE ? "never" : every + " messages", (double) stanza / n, 100.0 * stanza / neverStanza);
            }
        }
    }

    /**
     * The deflate stream's dictionary against its bytes: each batch compressed against the last
     * {@code W} bytes the stream sent, for W from nothing (each batch on its own) to the whole
     * DEFLATE window. Memory per session: the service keeps pointers (what the window reaches, as
     * varint runs: the largest any session held over the corpus); a copy of the window would be W.
     */
    private static void windows(List<IrcCorpus.Line> lines) {
        System.out.println();
        System.out.println("Deflate stream: dictionary size against bytes and memory per session (compact items, level "
                + BatchBenchmark.DEFLATE_LEVEL + ")");
        System.out.println("| batch | dictionary | payload B/msg | wire B/msg | pointers held, max B | a copy of the window, B |");
        System.out.println("|---:|---:|---:|---:|---:|---:|");
        for (int k : SIZES) {
            for (int window : new int[] {0, 4096, 8192, 16384, DeflateStream.WINDOW}) {
                BenchRoom room = new BenchRoom(lines.size(), new DeflateStreams(window));
                List<MessageLog.Entry<Occupant>> log = room.logAll(lines);
                long payload = 0;
                long wire = 0;
                long n = 0;
                long pointers = 0;
                for (int from = 0; from + k <= log.size(); from += k) {
                    int b = bytes(room.batch(Aggregation.COMPACT_DEFLATE, log.subList(from, from + k)));
                    payload += b;
                    wire += wire(b);
                    n += k;
                    pointers = Math.max(pointers, room.streams().pointerBytes());
                }
                System.out.printf(Locale.ROOT, "| %d | %s | %.1f | %.1f | %d | %d |%n", k,
                        window == 0 ? "none" : window / 1024 + " KiB", (double) payload / n, (double) wire / n, pointers, window);
            }
        }
    }

    private static void row(int k, String form, long payload, long wire, long n, long baseP, long baseW) {
        System.out.printf(Locale.ROOT, "| %d | %s | %.1f | %.1f | %.1f %% | %.1f %% |%n", k, form,
                (double) payload / n, (double) wire / n, 100.0 * payload / baseP, 100.0 * wire / baseW);
    }
}
