package org.reconmuc.joom.ui;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import javax.swing.SwingUtilities;
import org.reconmuc.joom.model.ChatMessage;
import org.reconmuc.joom.model.ConnectionState;
import org.reconmuc.joom.model.JoomRequirements;
import org.reconmuc.joom.model.JoomRoom;
import org.reconmuc.joom.model.Mode;
import org.reconmuc.joom.model.OccupantPages;
import org.reconmuc.joom.model.Settings;
import org.reconmuc.joom.model.SettingsStore;
import org.reconmuc.joom.session.ConnectOptions;
import org.reconmuc.joom.session.JoomSession;
import org.reconmuc.joom.session.SessionException;
import org.reconmuc.joom.session.SessionListener;

/**
 * Joins the window to the session: network calls run on one worker thread, in order, never on
 * the Swing thread; what the session reports is applied to the model on the Swing thread. The
 * model ({@link JoomRoom}) is only touched there.
 */
final class JoomController implements SessionListener {

    /** What the window shows besides the model. */
    interface View {
        /** A new room model (on connecting): listen to it from now on. */
        void roomChanged(JoomRoom room);

        void state(ConnectionState state, Mode mode);

        void occupants(List<String> nicks);

        /** A big room's occupants, as listed so far (a page at a time, {@link #loadMoreOccupants}). */
        void occupantPages(OccupantPages pages);

        /** A problem in plain words (a banner; the app keeps running). */
        void problem(String plainWords);
    }

    private final ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "joom-worker");
        t.setDaemon(true);
        return t;
    });
    private final JoomSession session = new JoomSession(this);
    private final SettingsStore store;
    private JoomRoom room;
    private View view;
    private Settings settings;
    private ConnectionState state = ConnectionState.DISCONNECTED;
    private Mode mode;
    /** A big room's occupant list as loaded: null in a room that is not big. */
    private OccupantPages occupantPages;
    private boolean loadingOccupants;

    JoomController(Settings settings, SettingsStore store) {
        this(settings, store, JoomSession.BIG_ROOM);
    }

    /** {@code bigRoom}: rooms of more occupants are big (joined at presence level moderators, their occupants listed a page at a time). */
    JoomController(Settings settings, SettingsStore store, int bigRoom) {
        this.settings = settings;
        this.store = store;
        this.room = new JoomRoom(settings.nick());
        session.setBigRoomThreshold(bigRoom);
    }

    void setView(View view) {
        this.view = view;
    }

    JoomRoom room() {
        return room;
    }

    JoomSession session() {
        return session;
    }

    Settings settings() {
        return settings;
    }

    /** Logs in and enters the room; completes on the Swing thread, exceptionally with plain words. */
    CompletableFuture<Mode> connect(Settings s, String password) {
        settings = s;
        room = new JoomRoom(s.nick());
        occupantPages = null;
        view.roomChanged(room);
        room.activate(s.topic());
        JoomRequirements wanted = s.requirements(room.activeTopic());
        CompletableFuture<Mode> done = new CompletableFuture<>();
        worker.execute(() -> {
            try {
                session.connect(ConnectOptions.of(s.server(), s.port(), s.jid(), password, s.anonymous()));
                Mode m = session.join(s.room(), s.nick(), wanted);
                save();
                SwingUtilities.invokeLater(() -> {
                    view.state(state, mode); // now with what the room was asked for
                    done.complete(m);
                });
            } catch (SessionException e) {
                SwingUtilities.invokeLater(() -> done.completeExceptionally(e));
            }
        });
        return done;
    }

    /** Makes {@code topic} active (created if new) and asks the room for its backlog. */
    void activate(String topic) {
        room.activate(topic);
        settings = settings.withTopic(room.activeTopic());
        JoomRequirements wanted = settings.requirements(room.activeTopic());
        onWorker(() -> {
            session.updateRequirements(wanted);
            save();
        });
    }

    /** Activates the {@code n}-th topic of the list (Ctrl+n). */
    void activateNth(int n) {
        String t = room.topicAt(n);
        if (t != null && !t.equals(room.activeTopic())) {
            activate(t);
        }
    }

    /** Creates a topic; returns its normalised name, or null after telling the view why not. */
    String createTopic(String name) {
        try {
            return room.createTopic(name);
        } catch (IllegalArgumentException e) {
            view.problem(e.getMessage());
            return null;
        }
    }

    /** Sends {@code text} in the active topic, as a reply to {@code parent} if given. */
    void send(String text, ChatMessage parent) {
        String topic = room.activeTopic();
        onWorker(() -> session.send(text, topic, parent));
    }

    /** New bounds for relaxed mode. */
    void setBounds(int timeSeconds, int volume) {
        settings = settings.withBounds(timeSeconds, volume);
        JoomRequirements wanted = settings.requirements(room.activeTopic());
        onWorker(() -> {
            session.updateRequirements(wanted);
            save();
        });
    }

    /**
     * Loads the next page of a big room's occupants, unless one is on its way or the list is
     * complete: the view asks when the end of its list comes into view.
     */
    void loadMoreOccupants() {
        OccupantPages pages = occupantPages;
        if (pages == null || pages.complete() || loadingOccupants) {
            return;
        }
        loadingOccupants = true;
        String after = pages.after();
        worker.execute(() -> {
            try {
                JoomSession.OccupantPage page = session.occupantPage(after, OccupantPages.PAGE);
                SwingUtilities.invokeLater(() -> {
                    loadingOccupants = false;
                    if (occupantPages == pages) { // not a room joined again meanwhile
                        occupantPages = page.afterMissing() ? pages.afterMissing()
                                : pages.withPage(page.nicks(), page.roomSize(), OccupantPages.PAGE);
                        view.occupantPages(occupantPages);
                    }
                });
            } catch (SessionException e) {
                SwingUtilities.invokeLater(() -> loadingOccupants = false);
                problem(e.getMessage());
            }
        });
    }

    OccupantPages occupantPages() {
        return occupantPages;
    }

    private interface Work {
        void run() throws SessionException;
    }

    private void onWorker(Work w) {
        worker.execute(() -> {
            try {
                w.run();
            } catch (SessionException e) {
                problem(e.getMessage());
            }
        });
    }

    private void save() {
        try {
            store.save(settings);
        } catch (java.io.IOException e) {
            problem("Could not save the settings to " + store.file() + ": " + e.getMessage());
        }
    }

    ConnectionState state() {
        return state;
    }

    Mode mode() {
        return mode;
    }

    // ---- from the session (its threads) -------------------------------------------------------

    @Override
    public void message(ChatMessage message) {
        SwingUtilities.invokeLater(() -> room.receive(message));
    }

    @Override
    public void occupants(List<String> nicks) {
        SwingUtilities.invokeLater(() -> view.occupants(nicks));
    }

    @Override
    public void bigRoom(Integer occupants) {
        SwingUtilities.invokeLater(() -> {
            occupantPages = OccupantPages.of(occupants);
            loadingOccupants = false;
            view.occupantPages(occupantPages);
        });
    }

    @Override
    public void state(ConnectionState s) {
        SwingUtilities.invokeLater(() -> {
            state = s;
            view.state(state, mode);
        });
    }

    @Override
    public void mode(Mode m) {
        SwingUtilities.invokeLater(() -> {
            mode = m;
            view.state(state, mode);
        });
    }

    @Override
    public void problem(String plainWords) {
        SwingUtilities.invokeLater(() -> view.problem(plainWords));
    }

    /** Leaves the room and stops (bounded: the window is closing). */
    void close() {
        worker.execute(session::close);
        worker.shutdown();
        try {
            worker.awaitTermination(3, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
