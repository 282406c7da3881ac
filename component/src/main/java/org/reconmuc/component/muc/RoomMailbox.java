package org.reconmuc.component.muc;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import org.xmpp.packet.Packet;

/**
 * Runs a room's work one task at a time on a shared executor, in submission order: the
 * room needs no locks, and stanzas from the server keep their order within the room.
 */
final class RoomMailbox implements Runnable {
    /** Tasks run per turn before yielding the thread to other rooms. */
    private static final int TURN = 64;

    /** A stanza for the room; the only kind of task that outlives the room (it is re-routed). */
    record Delivery(Packet packet, Runnable work) implements Runnable {
        @Override
        public void run() {
            work.run();
        }
    }

    private final Executor executor;
    private final ArrayDeque<Runnable> queue = new ArrayDeque<>();
    private boolean scheduled;

    RoomMailbox(Executor executor) {
        this.executor = executor;
    }

    void submit(Runnable task) {
        synchronized (this) {
            queue.addLast(task);
            if (scheduled) {
                return;
            }
            scheduled = true;
        }
        executor.execute(this);
    }

    @Override
    public void run() {
        for (int i = 0; i < TURN; i++) {
            Runnable task;
            synchronized (this) {
                task = queue.pollFirst();
                if (task == null) {
                    scheduled = false;
                    return;
                }
            }
            task.run();
        }
        synchronized (this) {
            if (queue.isEmpty()) {
                scheduled = false;
                return;
            }
        }
        executor.execute(this);
    }

    /** Takes the stanzas still waiting (the room is gone); other tasks are dropped. */
    synchronized List<Packet> drainDeliveries() {
        List<Packet> packets = new ArrayList<>();
        for (Runnable r : queue) {
            if (r instanceof Delivery d) {
                packets.add(d.packet());
            }
        }
        queue.clear();
        return packets;
    }
}
