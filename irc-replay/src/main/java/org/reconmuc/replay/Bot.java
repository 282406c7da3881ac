package org.reconmuc.replay;

import java.util.BitSet;
import java.util.List;
import org.jivesoftware.smack.filter.StanzaFilter;
import org.jivesoftware.smack.packet.Message;
import org.jivesoftware.smack.packet.Presence;
import org.jivesoftware.smack.packet.Stanza;
import org.jivesoftware.smack.tcp.XMPPTCPConnection;
import org.jivesoftware.smackx.sid.element.StanzaIdElement;
import org.reconmuc.codec.XmlNamespaces;
import org.reconmuc.codec.batch.BatchDecoder;
import org.reconmuc.codec.batch.MalformedBatchException;
import org.reconmuc.replay.meter.BotMeter;
import org.reconmuc.replay.meter.Series.Metric;
import org.reconmuc.smack.ReconMucManager;
import org.reconmuc.smack.element.BatchElement;
import org.reconmuc.smack.provider.ReconMucProviders;

/**
 * One replay participant: a real Smack connection, its meter, and the record of what it received.
 * Incoming stanzas are accounted on the connection's own reader thread (a stanza filter that
 * accepts nothing), so the receipt time is taken right after parsing, with no listener queue.
 */
final class Bot implements StanzaFilter {
    static {
        ReconMucProviders.register(); // before any bot connects: batches and results parse into the library's elements
    }

    final Workload.BotSpec spec;
    final World world;
    final BotMeter meter;
    final RunState run;
    private final RunState.WorldMeasures measures;
    volatile XMPPTCPConnection connection;
    /** The topic (channel) the bot follows: where it last spoke, or its listener's pick. */
    volatile String topic;
    int volume;
    /** What it received, in order and in time or not; read under this bot's lock. */
    final DeliveryLog log;
    int batches;
    int batchErrors;
    int retainedDeliveries;
    /** Used on the connection's reader thread only. */
    private final BatchDecoder decoder = new BatchDecoder();

    Bot(Workload.BotSpec spec, World world, BotMeter meter, RunState run) {
        this.spec = spec;
        this.world = world;
        this.meter = meter;
        this.run = run;
        this.measures = run.byWorld.get(world);
        this.log = new DeliveryLog(run.parent);
    }

    String nick() {
        return spec.nick();
    }

    @Override
    public boolean accept(Stanza stanza) {
        try {
            if (stanza instanceof Message m) {
                onMessage(m);
            } else if (stanza instanceof Presence) {
                run.presencesReceived.incrementAndGet();
            }
        } catch (RuntimeException e) {
            synchronized (this) {
                batchErrors++;
            }
        }
        return false;
    }

    private void onMessage(Message m) {
        if (m.getType() == Message.Type.error) {
            run.errorsReceived.incrementAndGet();
            return;
        }
        if (BatchElement.from(m) != null) {
            onBatch(m);
            return;
        }
        if (m.getBody() == null) {
            return;
        }
        long[] id = MessageIds.parse(m.getStanzaId());
        if (id == null) {
            return;
        }
        StanzaIdElement sid = StanzaIdElement.getStanzaId(m);
        if (sid != null) {
            run.stanzaIds.compareAndSet((int) id[0], null, sid.getId());
        }
        deliver((int) id[0], id[1], isDelayed(m), System.nanoTime());
    }

    private void onBatch(Message batch) {
        long now = System.nanoTime();
        List<Message> items;
        try {
            items = ReconMucManager.unpack(batch, decoder);
        } catch (MalformedBatchException ex) {
            synchronized (this) {
                batchErrors++;
            }
            return;
        }
        // A live last item (compact-live, compact-deflate-live) has no delay: it came at once. A batch
        // of only that is a message at once, not a flush.
        if (items.stream().anyMatch(Bot::isDelayed)) {
            synchronized (this) {
                batches++;
            }
            int second = run.series.second(now);
            run.series.add(Metric.BATCHES, second, 1);
            measures.series.add(Metric.BATCHES, second, 1);
        }
        for (Message msg : items) {
            long[] id = MessageIds.parse(msg.getStanzaId());
            StanzaIdElement sid = StanzaIdElement.getStanzaId(msg);
            if (id != null && sid != null && id[0] >= 0 && id[0] < run.parent.length) {
                run.stanzaIds.compareAndSet((int) id[0], null, sid.getId());
            }
            if (id != null) {
                deliver((int) id[0], id[1], isDelayed(msg), now);
            }
        }
    }

    private static boolean isDelayed(Message m) {
        return m.getExtensionElement("delay", XmlNamespaces.DELAY) != null;
    }

    private synchronized void deliver(int seq, long sentMicros, boolean retained, long now) {
        if (seq < 0 || seq >= run.parent.length) {
            return;
        }
        if (!log.deliver(seq, run.linked.get(seq) == 1, now > run.cutoffNanos)) {
            return;
        }
        run.firstSeenNanos.compareAndSet(seq, 0, now);
        int parent = run.parent[seq];
        double ms = (now - run.series.startNanos() - sentMicros * 1000) / 1e6;
        run.all.record(ms);
        measures.all.record(ms);
        if (retained) {
            retainedDeliveries++;
            run.retained.record(ms);
            measures.retained.record(ms);
        } else {
            run.immediate.record(ms);
            measures.immediate.record(ms);
        }
        if (parent >= 0 && run.author[parent] == spec.index() && run.author[seq] != spec.index()) {
            run.directReplies.record(ms);
            measures.directReplies.record(ms);
        }
        int second = run.series.second(now);
        run.series.add(Metric.DELIVERIES, second, 1);
        measures.series.add(Metric.DELIVERIES, second, 1);
    }

    /** Messages of {@code sent} (seq set) this bot has not received. */
    synchronized int missing(BitSet sent) {
        return log.missing(sent);
    }

    /** The messages of {@code sent} this bot has not received. */
    synchronized BitSet missingOf(BitSet sent) {
        return log.missingOf(sent);
    }

    synchronized int received() {
        return log.received;
    }
}
