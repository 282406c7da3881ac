package org.reconmuc.benchmarks;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.reconmuc.component.consistency.Aggregation;
import org.reconmuc.component.consistency.ConsistencyEngine;
import org.reconmuc.component.consistency.Delivery;
import org.reconmuc.component.consistency.FilterKey;
import org.reconmuc.component.consistency.Reader;
import org.reconmuc.component.consistency.Requirements;
import org.reconmuc.component.consistency.Urgency;

/**
 * A room of relaxed occupants driven through the {@link ConsistencyEngine} as the room's fan-out
 * ({@code muc.RoomFanout}) drives it — who needs each message now is decided by the same pure
 * {@link Urgency} — on a virtual clock, with a deterministic (seeded) workload shaped like the
 * paper's load:
 *
 * <ul>
 *   <li>every occupant relaxed, filtering one of {@link #TOPICS six topics} (uniformly), volume
 *       uniform in [{@code minVolume}, {@code maxVolume}], time bound 60 s (or {@code timeMillis}), history capacity
 *       {@link #CAPACITY};</li>
 *   <li>each message carries one of the six topics (uniformly) and, as the room adds it, the
 *       nick key of its author; with {@link Topics#UNFILTERED} it carries a topic nobody filters
 *       instead, so nobody needs it at once except its direct recipients;</li>
 *   <li>{@link #REPLY_SHARE} of the messages reply to one of the previous {@link #REPLY_WINDOW}
 *       (and keep its topic): the parent's author is a direct recipient, as is the sender
 *       (echo). Authors are drawn from the first {@link #TALKERS} occupants;</li>
 *   <li>time advances by exponential gaps at {@code messagesPerSecond} (the paper: ~6/s), and
 *       {@link ConsistencyEngine#onTime} runs whenever a deadline has come due — what the room's
 *       timer does — before the next message.</li>
 * </ul>
 *
 * The message pattern repeats every {@link #PATTERN} messages, so a benchmark can post forever.
 */
public final class RelaxedRoom {
    public static final int CAPACITY = 100;
    public static final long TIME_MILLIS = 60_000;
    public static final String[] TOPICS = {"ubuntu", "linux", "rust", "mediawiki", "stripe", "ubuntu-meeting"};
    /** A topic no occupant filters. */
    public static final String UNFILTERED_TOPIC = "offtopic";
    public static final double REPLY_SHARE = 0.3;
    public static final int REPLY_WINDOW = 20;
    public static final int TALKERS = 800;
    public static final int PATTERN = 8192;
    private static final long START = 1_700_000_000_000L;

    public enum Topics {
        /** Messages carry one of the six filtered topics: ~1/6 of the room needs each at once. */
        FILTERED,
        /** Messages carry a topic nobody filters: only the sender and the parent's author get it now. */
        UNFILTERED
    }

    /**
     * @param sharedRequirements one {@link Requirements} instance per distinct (topic, volume) —
     *     otherwise one per occupant, with its own filter key and strings, as the room creates them today
     */
    public record Config(int occupants, Topics topics, double messagesPerSecond, int minVolume, int maxVolume,
            long timeMillis, boolean sharedRequirements, long seed) {

        /** The benchmark's room: volume uniform in [1, 60], time 60 s, 6 messages/s, requirements per occupant. */
        public static Config of(int occupants, Topics topics) {
            return new Config(occupants, topics, 6, 1, 60, TIME_MILLIS, false, 42);
        }

        public Config withVolume(int min, int max) {
            return new Config(occupants, topics, messagesPerSecond, min, max, timeMillis, sharedRequirements, seed);
        }

        public Config withTimeMillis(long time) {
            return new Config(occupants, topics, messagesPerSecond, minVolume, maxVolume, time, sharedRequirements, seed);
        }

        public Config withSharedRequirements(boolean shared) {
            return new Config(occupants, topics, messagesPerSecond, minVolume, maxVolume, timeMillis, shared, seed);
        }

        public Config withMessagesPerSecond(double rate) {
            return new Config(occupants, topics, rate, minVolume, maxVolume, timeMillis, sharedRequirements, seed);
        }
    }

    private final Config config;
    private final ConsistencyEngine<Occupant> engine = new ConsistencyEngine<>(CAPACITY);
    private final Occupant[] occupants;
    private final List<Reader<Occupant>> readers;

    // The repeating message pattern.
    private final int[] senderOf = new int[PATTERN];
    private final int[] replyBack = new int[PATTERN];
    private final long[] gapMillis = new long[PATTERN];
    /** Each pattern message's topics (the sender's nick key is {@link Urgency}'s to add). */
    private final List<Set<FilterKey>> topicsOf = new ArrayList<>(PATTERN);

    /** Author (occupant index) of each message still in the history, by {@code seq % CAPACITY}. */
    private final int[] authorBySlot = new int[CAPACITY];
    private long now = START;
    private long messages;

    public RelaxedRoom(Config config) {
        this.config = config;
        SplittableRandom random = new SplittableRandom(config.seed());
        int n = config.occupants();
        occupants = new Occupant[n];
        readers = new ArrayList<>(n);
        Map<String, Requirements> shared = new HashMap<>();
        for (int i = 0; i < n; i++) {
            occupants[i] = new Occupant(i);
            String topic = TOPICS[random.nextInt(TOPICS.length)];
            int volume = config.minVolume() + random.nextInt(config.maxVolume() - config.minVolume() + 1);
            Requirements r = config.sharedRequirements()
                    ? shared.computeIfAbsent(topic + "/" + volume, k -> requirements(topic, config.timeMillis(), volume))
                    // As the room does: parsed from this occupant's own request, so its own strings.
                    : requirements(new String(topic.toCharArray()), config.timeMillis(), volume);
            readers.add(engine.relax(occupants[i], r));
        }

        FilterKey[] topicKeys = new FilterKey[TOPICS.length];
        for (int t = 0; t < TOPICS.length; t++) {
            topicKeys[t] = FilterKey.topic(TOPICS[t]);
        }
        FilterKey unfiltered = FilterKey.topic(UNFILTERED_TOPIC);
        int talkers = Math.min(TALKERS, n);
        int[] topicOf = new int[PATTERN];
        double meanGap = 1000.0 / config.messagesPerSecond();
        for (int i = 0; i < PATTERN; i++) {
            senderOf[i] = random.nextInt(talkers);
            boolean reply = i >= REPLY_WINDOW && random.nextDouble() < REPLY_SHARE;
            replyBack[i] = reply ? 1 + random.nextInt(REPLY_WINDOW) : 0;
            topicOf[i] = reply ? topicOf[i - replyBack[i]] : random.nextInt(TOPICS.length);
            gapMillis[i] = Math.round(-Math.log(1 - random.nextDouble()) * meanGap);
            FilterKey topicKey = config.topics() == Topics.FILTERED ? topicKeys[topicOf[i]] : unfiltered;
            topicsOf.add(Set.of(topicKey));
        }
    }

    private static Requirements requirements(String topic, long timeMillis, int volume) {
        return new Requirements(Set.of(FilterKey.topic(topic)), timeMillis, volume, Aggregation.PLAIN);
    }

    /** Posts the next message of the workload: due time bounds first, then the message itself. */
    public void post(List<Delivery<Occupant>> out) {
        int i = (int) (messages % PATTERN);
        messages++;
        now += gapMillis[i];
        if (engine.nextDeadline() <= now) {
            engine.onTime(now, out);
        }
        long seq = engine.head() + 1;
        long parent = replyBack[i] > 0 && seq - replyBack[i] >= 1 ? seq - replyBack[i] : 0;
        int sender = senderOf[i];
        Reader<Occupant> parentAuthor = parent > 0 ? readers.get(authorBySlot[(int) (parent % CAPACITY)]) : null;
        authorBySlot[(int) (seq % CAPACITY)] = sender;
        Urgency<Occupant> urgency = Urgency.of(occupants[sender].nick, topicsOf.get(i), readers.get(sender), parent > 0,
                parentAuthor, null, List.of());
        engine.onMessage(seq, now, parent, urgency.keys(), urgency.direct(), out);
    }

    /** Posts {@code count} messages, discarding the deliveries: brings the engine to its steady state. */
    public void warmUp(int count) {
        List<Delivery<Occupant>> out = new ArrayList<>();
        for (int k = 0; k < count; k++) {
            post(out);
            out.clear();
        }
    }

    public Config config() {
        return config;
    }

    public ConsistencyEngine<Occupant> engine() {
        return engine;
    }

    public List<Reader<Occupant>> readers() {
        return readers;
    }

    public Occupant[] occupants() {
        return occupants;
    }

    public long now() {
        return now;
    }

    public long messagesPosted() {
        return messages;
    }
}
