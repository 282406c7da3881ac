package org.reconmuc.benchmarks;

import java.util.List;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;
import org.reconmuc.component.consistency.Delivery;

/**
 * What a message produced, counted as JMH "operations" so that, in AverageTime mode, JMH
 * reports each counter as <em>ns per counted thing</em> over exactly the measured invocations:
 * {@code :item} is ns per delivered message pointer, {@code :messageOrItem} ns per (message +
 * delivered item), and so on. Per-message counts are the primary score divided by a counter's
 * score ({@code scripts/tables.py} does it).
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.OPERATIONS)
public class DeliveryCounters {
    /** Stanzas the room must send: NOW + FLUSH deliveries. */
    public long delivery;
    public long nowDelivery;
    public long flushDelivery;
    /** Delivered message pointers (a NOW delivery with ancestors carries several; a flush many). */
    public long item;
    public long nowItem;
    public long flushItem;
    /** Messages posted plus items delivered: the work that is inherent output, plus one per message. */
    public long messageOrItem;

    @Setup(Level.Iteration)
    public void reset() {
        delivery = nowDelivery = flushDelivery = item = nowItem = flushItem = messageOrItem = 0;
    }

    /** Consumes (Blackhole) and counts one message's deliveries. */
    public void consume(List<Delivery<Occupant>> out, Blackhole bh) {
        long now = 0;
        long nowItems = 0;
        long flushItems = 0;
        for (int i = 0, n = out.size(); i < n; i++) {
            Delivery<Occupant> d = out.get(i);
            bh.consume(d);
            if (d.kind() == Delivery.Kind.NOW) {
                now++;
                nowItems += d.seqs().length;
            } else {
                flushItems += d.seqs().length;
            }
        }
        int total = out.size();
        delivery += total;
        nowDelivery += now;
        flushDelivery += total - now;
        nowItem += nowItems;
        flushItem += flushItems;
        item += nowItems + flushItems;
        messageOrItem += 1 + nowItems + flushItems;
    }
}
