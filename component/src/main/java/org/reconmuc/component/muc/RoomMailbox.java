package org.reconmuc.component.muc;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import org.reconmuc.component.jid.RoomJid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xmpp.packet.Packet;

/**
 * Runs a room's work one task at a time on a shared executor, in submission order: the
 * room needs no locks, and stanzas from the server keep their order within the room. A task
 * that throws is logged and the next one runs: one failure must not leave the mailbox marked
 * scheduled, the room silent and the places of its waiting stanzas never given back.
 */
final class RoomMailbox implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(RoomMailbox.class);
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
    /** Whose mailbox this is, for the log. */
    private final RoomJid room;
    private final ArrayDeque<Runnable> queue = new ArrayDeque<>();
    private boolean scheduled;

    RoomMailbox(Executor executor, RoomJid room) {
        this.executor = executor;
        this.room = room;
    }

    void submit(Runnable task) {
        submitAll(List.of(task));
    }

    /** Queues {@code tasks} together, in order: none of them runs before all are queued. */
    void submitAll(List<? extends Runnable> tasks) {
        synchronized (this) {
            queue.addAll(tasks);
            if (scheduled || queue.isEmpty()) {
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
            try {
                task.run();
            } catch (RuntimeException | StackOverflowError e) {
                LOG.error("room {}: a task failed; the room goes on with its next one", room, e);
            }
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
