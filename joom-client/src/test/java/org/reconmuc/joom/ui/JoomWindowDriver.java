package org.reconmuc.joom.ui;

import java.awt.GraphicsEnvironment;
import java.awt.Rectangle;
import java.awt.Robot;
import java.awt.event.InputEvent;
import java.awt.event.KeyEvent;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import javax.imageio.ImageIO;
import javax.swing.Action;
import javax.swing.JComponent;
import javax.swing.JMenuItem;
import javax.swing.KeyStroke;
import javax.swing.SwingUtilities;
import org.jivesoftware.smack.tcp.XMPPTCPConnection;
import org.jivesoftware.smack.tcp.XMPPTCPConnectionConfiguration;
import org.jivesoftware.smackx.muc.MultiUserChat;
import org.jivesoftware.smackx.muc.MultiUserChatManager;
import org.jxmpp.jid.impl.JidCreate;
import org.jxmpp.jid.parts.Resourcepart;
import org.reconmuc.joom.model.Arrival;
import org.reconmuc.joom.model.ChatMessage;
import org.reconmuc.joom.model.ConnectionState;
import org.reconmuc.joom.model.Mode;
import org.reconmuc.joom.model.Settings;
import org.reconmuc.joom.model.SettingsStore;
import org.reconmuc.joom.model.TopicView;

/**
 * Runs inside an X display (the window test starts it under Xvfb): opens two real Joom windows
 * (Alice and Bob, each with its own connection and settings) and a plain Smack client (Carol) in
 * one room of a real Prosody with ReConMUC, plays the conversation of the issue's "Done when", checks
 * what each window shows, and saves screenshots. Exit 0 when every check holds.
 *
 * <p>Arguments: {@code full|hidpi|big host c2sPort loginDomain room screenshotDir workDir}; {@code big}: a room
 * the test filled with light bots, which Alice's Joom joins as a big room (more than {@link #BIG_ROOM} occupants).
 */
public final class JoomWindowDriver {
    private static final Duration AT_ONCE = Duration.ofSeconds(3);
    private static final int TIME_BOUND = 6;
    /** The threshold the big-room run gives Joom: the test's crowd is a few hundred, not thousands. */
    static final int BIG_ROOM = 100;

    private final String host;
    private final int port;
    private final String domain;
    private final String room;
    private final Path shots;
    private final Path work;

    private JoomWindowDriver(String[] a) {
        host = a[1];
        port = Integer.parseInt(a[2]);
        domain = a[3];
        room = a[4];
        shots = Path.of(a[5]);
        work = Path.of(a[6]);
    }

    public static void main(String[] args) {
        int code = 1;
        try {
            JoomWindowDriver d = new JoomWindowDriver(args);
            if (args[0].equals("hidpi")) {
                d.hidpi();
            } else if (args[0].equals("big")) {
                d.bigRoom();
            } else {
                d.conversation();
            }
            System.out.println("DRIVER OK");
            code = 0;
        } catch (Throwable t) {
            System.out.println("DRIVER FAILED: " + t);
            t.printStackTrace(System.out);
        }
        System.exit(code); // Smack and Swing keep non-daemon threads
    }

    // ---- the conversation --------------------------------------------------------------------

    private void conversation() throws Exception {
        MultiUserChat carol = carol("conversation"); // creates the room
        JoomWindow alice = open("Alice", "movies");
        JoomWindow bob = open("Bob", "gossip");
        for (JoomWindow w : List.of(alice, bob)) {
            await("connected in relaxed mode", Duration.ofSeconds(20),
                    () -> w.controller.state() == ConnectionState.CONNECTED && w.controller.mode() == Mode.RELAXED);
        }
        onEdt(() -> alice.controller.createTopic("gossip"));
        onEdt(() -> bob.controller.createTopic("movies"));

        // Carol (a plain client) and Bob (Joom, in his topic) talk.
        carol.sendMessage("Has anyone seen the new Almodóvar yet? #movies");
        type(bob, "Did you hear about Dave's new job?");
        type(bob, "It is at the cinema downtown, apparently");
        await("Alice sees Carol's movies message at once", AT_ONCE, () -> has(alice.room().conversation(), "Has anyone seen"));
        check(!has(alice.room().timeline(), "Did you hear"), "Bob's gossip is retained for Alice");
        check(arrival(alice, "Has anyone seen") == Arrival.LIVE, "the active topic arrives live");
        await("Bob sees his own messages", AT_ONCE, () -> has(bob.room().conversation(), "It is at the cinema"));
        shot(alice, "01-alice-movies-at-once");

        await("the time bound flushes gossip to Alice as a batch", Duration.ofSeconds(TIME_BOUND + 6),
                () -> has(alice.room().timeline(), "It is at the cinema"));
        check(arrival(alice, "Did you hear") == Arrival.BATCHED, "gossip came in a batch");
        check(unread(alice, "gossip") == 2, "gossip shows 2 unread for Alice, not " + unread(alice, "gossip"));
        check(onEdt(() -> alice.timelineList.getModel().getSize()) == 3, "Alice's timeline has all three");
        shot(alice, "02-alice-batch-with-delay-marks");

        // More gossip while Alice reads movies; switching (Ctrl+2) brings it at once.
        carol.sendMessage("Dave starts on Monday #gossip");
        Thread.sleep(700);
        check(!onEdt(() -> has(alice.room().timeline(), "Dave starts")), "the new gossip is retained for Alice");
        long switched = System.nanoTime();
        onEdt(() -> {
            JComponent root = alice.getRootPane();
            Object key = root.getInputMap(JComponent.WHEN_IN_FOCUSED_WINDOW)
                    .get(KeyStroke.getKeyStroke(KeyEvent.VK_2, InputEvent.CTRL_DOWN_MASK));
            Action a = root.getActionMap().get(key);
            a.actionPerformed(new java.awt.event.ActionEvent(root, java.awt.event.ActionEvent.ACTION_PERFORMED, "ctrl 2"));
            return null;
        });
        await("Ctrl+2 makes gossip active", AT_ONCE, () -> "gossip".equals(alice.room().activeTopic()));
        await("the backlog arrives at once", AT_ONCE, () -> has(alice.room().conversation(), "Dave starts"));
        long took = Duration.ofNanos(System.nanoTime() - switched).toMillis();
        check(took < TIME_BOUND * 1000L, "released by the switch, not by the time bound (" + took + " ms)");
        check(unread(alice, "gossip") == 0, "gossip read");
        shot(alice, "03-alice-switched-to-gossip");

        // Alice replies to Bob from the context menu; Bob gets it at once, highlighted, with a notification.
        ChatMessage parent = onEdt(() -> find(alice.room().conversation(), "Did you hear"));
        onEdt(() -> {
            JMenuItem reply = (JMenuItem) alice.messageMenu(parent).getComponent(0);
            reply.doClick();
            return null;
        });
        type(alice, "Congratulations to Dave! Bob, tell him from me");
        carol.sendMessage("bob: you should bring him to the party #gossip");
        await("Bob gets Alice's reply at once", AT_ONCE, () -> has(bob.room().conversation(), "Congratulations"));
        await("and the mention", AT_ONCE, () -> has(bob.room().conversation(), "bob: you should bring"));
        check(onEdt(() -> bob.room().isReplyToMe(find(bob.room().timeline(), "Congratulations"))), "a reply to Bob");
        check(onEdt(() -> bob.noticeText()).contains("Alice replied to you"), "Bob's notification: " + onEdt(bob::noticeText));
        check(onEdt(() -> bob.statusReplies.getText()).contains("1 reply"), "Bob's reply counter");
        check(onEdt(bob::getTitle).startsWith("(1)"), "Bob's title counts the reply");
        shot(bob, "04-bob-reply-and-mention-highlighted");

        onEdt(() -> {
            alice.search.setText("dave");
            return null;
        });
        check(onEdt(() -> alice.timelineList.getModel().getSize()) == 3, "the search finds the three Dave messages");
        check(onEdt(() -> alice.statusText()).contains("Relaxed mode"), "Alice's status bar: " + onEdt(alice::statusText));
        shot(alice, "05-alice-search");
        screen("06-whole-display");
        System.out.println("Alice's status: " + onEdt(alice::statusText));
        System.out.println("Bob's status:   " + onEdt(bob::statusText));
    }

    /** HiDPI (run with -Dsun.java2d.uiScale=2 on a 2732×1536 screen): the window fits the logical screen and draws at 2×. */
    private void hidpi() throws Exception {
        MultiUserChat carol = carol("hidpi");
        JoomWindow alice = open("Alice", "movies");
        await("connected", Duration.ofSeconds(20), () -> alice.controller.mode() == Mode.RELAXED);
        carol.sendMessage("HiDPI: is this text crisp? #movies");
        type(alice, "Crisp and at the right size, thanks");
        await("both messages", AT_ONCE, () -> alice.room().conversation().size() == 2);
        Rectangle screen = onEdt(() -> alice.getGraphicsConfiguration().getBounds());
        Rectangle window = onEdt(alice::getBounds);
        double scale = onEdt(() -> alice.getGraphicsConfiguration().getDefaultTransform().getScaleX());
        System.out.println("logical screen " + screen + ", window " + window + ", scale " + scale);
        check(scale == 2.0, "the toolkit scales by 2");
        check(screen.contains(window), "the window fits the logical screen");
        Thread.sleep(300);
        // The device pixels: the capture's largest resolution variant (the plain capture is scaled to the logical size).
        java.awt.image.MultiResolutionImage capture = onEdt(() -> new Robot().createMultiResolutionScreenCapture(window));
        java.awt.Image largest = capture.getResolutionVariants().get(capture.getResolutionVariants().size() - 1);
        BufferedImage image = new BufferedImage(largest.getWidth(null), largest.getHeight(null), BufferedImage.TYPE_INT_RGB);
        image.getGraphics().drawImage(largest, 0, 0, null);
        System.out.println("device pixels " + image.getWidth() + "x" + image.getHeight());
        Files.createDirectories(shots);
        ImageIO.write(image, "png", shots.resolve("07-hidpi-alice.png").toFile());
    }

    /**
     * A big room (light bots; bot 0 made it and is its only moderator): Alice's Joom reads its size
     * before joining, joins at presence level moderators and asks for a digest by the clock; she gets
     * the history, her topic at once and the rest in a batch; her occupant list shows the room's size
     * and grows a page at a time as she scrolls to its end.
     */
    private void bigRoom() throws Exception {
        MultiUserChat carol = carol("big");
        carol.sendMessage("Before Alice came: anyone for the film club? #movies");
        JoomWindow alice = open("Alice", "movies", BIG_ROOM);
        await("connected in relaxed mode", Duration.ofSeconds(30),
                () -> alice.controller.state() == ConnectionState.CONNECTED && alice.controller.mode() == Mode.RELAXED);
        org.reconmuc.joom.session.JoomSession session = alice.controller.session();
        check(session.presenceLevel() == org.reconmuc.smack.element.PresenceLevel.MODERATORS, "joined at presence level moderators");
        check(session.stated().volume() == session.support().largestVolume(), "a digest by the clock: volume " + session.stated().volume()
                + ", the room's largest " + session.support().largestVolume());
        check(session.stated().timeSeconds() == TIME_BOUND && "movies".equals(session.stated().activeTopic()),
                "her bound and topic: " + session.stated());
        await("the moderator's presence and her own, no one else's", AT_ONCE, () -> starred(alice).size() == 2);
        check(onEdt(() -> starred(alice)).contains("★ Alice"), "her own among them: " + onEdt(() -> starred(alice)));
        await("the history", AT_ONCE, () -> has(alice.room().timeline(), "Before Alice came"));

        await("a first page of occupants", Duration.ofSeconds(10), () -> alice.controller.occupantPages().nicks().size() == 100);
        int size = onEdt(() -> alice.controller.occupantPages().count()); // the room's size as the page came
        Thread.sleep(500);
        check(onEdt(() -> alice.controller.occupantPages().nicks().size()) == 100, "only the page in view is loaded");
        check(onEdt(() -> alice.occupantsTitle.getText()).startsWith("<html>Occupants (" + String.format(java.util.Locale.ROOT, "%,d", size)
                + ")<br><small>100 listed, more as you scroll"), "the title: " + onEdt(() -> alice.occupantsTitle.getText()));
        shot(alice, "08-alice-big-room");
        for (int n : List.of(200, size)) {
            onEdt(() -> {
                javax.swing.JScrollBar bar = alice.occupantScroll.getVerticalScrollBar();
                bar.setValue(bar.getMaximum());
                return null;
            });
            await(n + " occupants listed after scrolling to the end", Duration.ofSeconds(10),
                    () -> alice.controller.occupantPages().nicks().size() == n);
        }
        check(onEdt(() -> alice.controller.occupantPages().complete()), "the whole list, " + size);

        carol.sendMessage("Screening on Friday #movies");
        carol.sendMessage("Did you hear about Dave? #gossip");
        await("her topic at once", AT_ONCE, () -> has(alice.room().conversation(), "Screening on Friday"));
        check(!onEdt(() -> has(alice.room().timeline(), "Did you hear about Dave")), "the rest retained");
        await("the rest in the digest, by the clock", Duration.ofSeconds(TIME_BOUND + 6),
                () -> has(alice.room().timeline(), "Did you hear about Dave"));
        check(arrival(alice, "Did you hear about Dave") == Arrival.BATCHED, "in a batch");
        System.out.println("Alice's status: " + onEdt(alice::statusText));
    }

    /** The occupant list's ★ entries: those whose presences the room sends (call on the Swing thread). */
    private static List<String> starred(JoomWindow w) {
        List<String> out = new java.util.ArrayList<>();
        for (int i = 0; i < w.occupantList.getModel().getSize(); i++) {
            if (w.occupantList.getModel().getElementAt(i).startsWith("★ ")) {
                out.add(w.occupantList.getModel().getElementAt(i));
            }
        }
        return out;
    }

    // ---- helpers -----------------------------------------------------------------------------

    private JoomWindow open(String nick, String topic) throws Exception {
        return open(nick, topic, org.reconmuc.joom.session.JoomSession.BIG_ROOM);
    }

    private JoomWindow open(String nick, String topic, int bigRoom) throws Exception {
        Path config = Files.createDirectories(work.resolve(nick.toLowerCase()));
        Settings s = Settings.DEFAULTS.withAccount(host, port, nick.toLowerCase() + "@" + domain, false).withRoom(room, nick)
                .withBounds(TIME_BOUND, 20).withTopic(topic);
        JoomApp.Launch launch = new JoomApp.Launch(s, "secret", true, null, config, bigRoom);
        return onEdt(() -> JoomApp.open(launch, new SettingsStore(config)));
    }

    private MultiUserChat carol(String resource) throws Exception {
        XMPPTCPConnection c = new XMPPTCPConnection(XMPPTCPConnectionConfiguration.builder().setXmppDomain(domain).setHost(host)
                .setPort(port).setSecurityMode(XMPPTCPConnectionConfiguration.SecurityMode.disabled)
                .setUsernameAndPassword("carol", "secret").setResource("plain-smack-" + resource).build());
        c.connect().login();
        MultiUserChat m = MultiUserChatManager.getInstanceFor(c).getMultiUserChat(JidCreate.entityBareFrom(room));
        MultiUserChat.MucCreateConfigFormHandle created = m.createOrJoin(Resourcepart.from("Carol"));
        if (created != null) {
            created.makeInstant();
        }
        return m;
    }

    /** Types into the window's input field and presses Send, as the user does. */
    private static void type(JoomWindow w, String text) throws Exception {
        onEdt(() -> {
            w.input.setText(text);
            w.sendInput();
            return null;
        });
    }

    private static boolean has(List<ChatMessage> messages, String start) {
        return find(messages, start) != null;
    }

    private static ChatMessage find(List<ChatMessage> messages, String start) {
        return messages.stream().filter(m -> m.body().startsWith(start)).findFirst().orElse(null);
    }

    private static Arrival arrival(JoomWindow w, String start) throws Exception {
        return onEdt(() -> find(w.room().timeline(), start).arrival());
    }

    private static int unread(JoomWindow w, String topic) throws Exception {
        return onEdt(() -> w.room().topics().stream().filter(t -> t.name().equals(topic)).mapToInt(TopicView::unread).sum());
    }

    private static void await(String what, Duration timeout, Callable<Boolean> condition) throws Exception {
        long end = System.nanoTime() + timeout.toNanos();
        while (!onEdt(condition)) {
            if (System.nanoTime() > end) {
                throw new AssertionError("timed out: " + what);
            }
            Thread.sleep(50);
        }
        System.out.println("ok: " + what);
    }

    private static void check(boolean holds, String what) {
        if (!holds) {
            throw new AssertionError("does not hold: " + what);
        }
        System.out.println("ok: " + what);
    }

    private static <T> T onEdt(Callable<T> c) throws Exception {
        AtomicReference<T> result = new AtomicReference<>();
        AtomicReference<Exception> failure = new AtomicReference<>();
        SwingUtilities.invokeAndWait(() -> {
            try {
                result.set(c.call());
            } catch (Exception e) {
                failure.set(e);
            }
        });
        if (failure.get() != null) {
            throw failure.get();
        }
        return result.get();
    }

    private void shot(JoomWindow w, String name) throws Exception {
        Thread.sleep(250); // let the lists finish laying out
        Path png = shots.resolve(name + ".png");
        onEdt(() -> {
            w.snapshot(png, 1.0);
            return null;
        });
        System.out.println("screenshot " + png);
    }

    private void screen(String name) throws Exception {
        Rectangle all = GraphicsEnvironment.getLocalGraphicsEnvironment().getDefaultScreenDevice().getDefaultConfiguration().getBounds();
        BufferedImage image = new Robot().createScreenCapture(all);
        Files.createDirectories(shots);
        try {
            ImageIO.write(image, "png", shots.resolve(name + ".png").toFile());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
