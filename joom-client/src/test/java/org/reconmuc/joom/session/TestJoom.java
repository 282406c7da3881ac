package org.reconmuc.joom.session;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import org.reconmuc.joom.model.ChatMessage;
import org.reconmuc.joom.model.ConnectionState;
import org.reconmuc.joom.model.JoomRoom;

/** A Joom without a window: a session feeding a model, as the app's controller does, with waits for tests. */
final class TestJoom implements SessionListener, AutoCloseable {
    final JoomSession session = new JoomSession(this);
    final JoomRoom room;
    final List<ConnectionState> states = new CopyOnWriteArrayList<>();
    final List<String> problems = new CopyOnWriteArrayList<>();
    private final List<ChatMessage> received = new ArrayList<>();

    TestJoom(String nick) {
        room = new JoomRoom(nick);
    }

    @Override
    public synchronized void message(ChatMessage message) {
        received.add(message);
        room.receive(message);
        notifyAll();
    }

    @Override
    public void state(ConnectionState state) {
        states.add(state);
    }

    @Override
    public void problem(String plainWords) {
        problems.add(plainWords);
    }

    /** The first message received matching {@code p}, waiting up to {@code timeout}; null if none came. */
    synchronized ChatMessage await(Predicate<ChatMessage> p, Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (true) {
            for (ChatMessage m : received) {
                if (p.test(m)) {
                    return m;
                }
            }
            long left = end - System.nanoTime();
            if (left <= 0) {
                return null;
            }
            wait(Math.max(1, left / 1_000_000));
        }
    }

    ChatMessage await(String body, Duration timeout) throws InterruptedException {
        return await(m -> m.body().startsWith(body), timeout);
    }

    synchronized List<ChatMessage> received() {
        return List.copyOf(received);
    }

    synchronized <T> T model(java.util.function.Function<JoomRoom, T> read) {
        return read.apply(room);
    }

    @Override
    public void close() {
        session.close();
    }
}
