package org.reconmuc.joom.ui;

import java.awt.BorderLayout;
import java.awt.Color;
import java.awt.Component;
import java.awt.Dimension;
import java.awt.FlowLayout;
import java.awt.Font;
import java.awt.GraphicsConfiguration;
import java.awt.Insets;
import java.awt.Rectangle;
import java.awt.SystemTray;
import java.awt.Taskbar;
import java.awt.Toolkit;
import java.awt.TrayIcon;
import java.awt.event.ComponentAdapter;
import java.awt.event.ComponentEvent;
import java.awt.event.InputEvent;
import java.awt.event.KeyEvent;
import java.awt.event.MouseAdapter;
import java.awt.event.MouseEvent;
import java.awt.event.WindowAdapter;
import java.awt.event.WindowEvent;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;
import javax.swing.AbstractAction;
import javax.swing.BorderFactory;
import javax.swing.Box;
import javax.swing.BoxLayout;
import javax.swing.DefaultListCellRenderer;
import javax.swing.DefaultListModel;
import javax.swing.JButton;
import javax.swing.JComponent;
import javax.swing.JFrame;
import javax.swing.JLabel;
import javax.swing.JList;
import javax.swing.JMenuItem;
import javax.swing.JOptionPane;
import javax.swing.JPanel;
import javax.swing.JPopupMenu;
import javax.swing.JScrollBar;
import javax.swing.JScrollPane;
import javax.swing.JSplitPane;
import javax.swing.JTextField;
import javax.swing.KeyStroke;
import javax.swing.ListSelectionModel;
import javax.swing.SwingUtilities;
import javax.swing.Timer;
import javax.swing.event.DocumentEvent;
import javax.swing.event.DocumentListener;
import org.reconmuc.joom.model.ChatMessage;
import org.reconmuc.joom.model.ConnectionState;
import org.reconmuc.joom.model.JoomRoom;
import org.reconmuc.joom.model.Mode;
import org.reconmuc.joom.model.OccupantPages;
import org.reconmuc.joom.model.TopicView;

/**
 * The window: topics and occupants on the left, the active topic's conversation in the middle
 * with the input below it, the global timeline (or the search's results) on the right, banners
 * for notifications and problems at the top, the status bar at the bottom.
 */
final class JoomWindow extends JFrame implements JoomController.View, JoomRoom.Listener {
    private static final Color NOTICE = new Color(0xfff1c7);
    private static final Color PROBLEM = new Color(0xfbd9d9);

    final JoomController controller;
    private JoomRoom room;

    private final DefaultListModel<TopicView> topics = new DefaultListModel<>();
    final JList<TopicView> topicList = new JList<>(topics);
    private final DefaultListModel<String> occupants = new DefaultListModel<>();
    final JList<String> occupantList = new JList<>(occupants);
    final JScrollPane occupantScroll = new JScrollPane(occupantList);
    final JLabel occupantsTitle = heading("Occupants");
    /** Those whose presences the room sends (in a big room: the moderators and the user). */
    private List<String> present = List.of();
    /** A big room's occupants as listed so far, or null in a room that is not big. */
    private OccupantPages bigRoom;
    private final DefaultListModel<ChatMessage> conversation = new DefaultListModel<>();
    final JList<ChatMessage> conversationList = new JList<>(conversation);
    private final DefaultListModel<ChatMessage> timeline = new DefaultListModel<>();
    final JList<ChatMessage> timelineList = new JList<>(timeline);
    private final JLabel conversationTitle = heading("");
    private final JLabel timelineTitle = heading("Timeline");
    private final JLabel roomTitle = new JLabel();
    final JTextField search = new JTextField(16);
    final JTextField input = new JTextField();
    private final JPanel replyBar = new JPanel(new BorderLayout(6, 0));
    private final JLabel replyLabel = new JLabel();
    private ChatMessage replyTarget;
    private final Banner notice = new Banner(NOTICE);
    private final Banner problem = new Banner(PROBLEM);
    private final JLabel statusState = new JLabel();
    private final JLabel statusMode = new JLabel();
    private final JLabel statusCounts = new JLabel();
    final JLabel statusReplies = new JLabel();
    private TrayIcon trayIcon;

    JoomWindow(JoomController controller) {
        super("Joom");
        this.controller = controller;
        this.room = controller.room();
        controller.setView(this);
        room.addListener(this);
        setDefaultCloseOperation(JFrame.DISPOSE_ON_CLOSE);
        buildLayout();
        bindKeys();
        addWindowListener(new WindowAdapter() {
            @Override
            public void windowClosed(WindowEvent e) {
                controller.close();
                if (trayIcon != null) {
                    SystemTray.getSystemTray().remove(trayIcon);
                }
            }

            @Override
            public void windowActivated(WindowEvent e) {
                updateTitle();
            }
        });
        new Timer(1000, e -> updateCounts()).start();
        state(ConnectionState.DISCONNECTED, null);
        refreshAll();
        fitToScreen();
    }

    // ---- layout --------------------------------------------------------------------------------

    private static JLabel heading(String text) {
        JLabel l = new JLabel(text);
        l.setFont(l.getFont().deriveFont(Font.BOLD));
        l.setBorder(BorderFactory.createEmptyBorder(6, 8, 6, 8));
        return l;
    }

    private void buildLayout() {
        // Left: topics (with counters and colours) above occupants.
        topicList.setCellRenderer(new TopicCell());
        topicList.setSelectionMode(ListSelectionModel.SINGLE_SELECTION);
        topicList.addMouseListener(new MouseAdapter() {
            @Override
            public void mouseClicked(MouseEvent e) {
                int i = topicList.locationToIndex(e.getPoint());
                if (i >= 0 && topicList.getCellBounds(i, i).contains(e.getPoint())) {
                    controller.activate(topics.get(i).name());
                }
            }
        });
        JButton newTopic = new JButton("New topic…");
        newTopic.addActionListener(e -> newTopic());
        JPanel topicPanel = new JPanel(new BorderLayout());
        topicPanel.add(heading("Topics   (Ctrl+1…9)"), BorderLayout.NORTH);
        topicPanel.add(new JScrollPane(topicList), BorderLayout.CENTER);
        JPanel newTopicRow = new JPanel(new FlowLayout(FlowLayout.LEFT, 6, 4));
        newTopicRow.add(newTopic);
        topicPanel.add(newTopicRow, BorderLayout.SOUTH);
        JPanel occupantPanel = new JPanel(new BorderLayout());
        occupantPanel.add(occupantsTitle, BorderLayout.NORTH);
        occupantPanel.add(occupantScroll, BorderLayout.CENTER);
        // A big room's list grows a page at a time as its end comes into view.
        occupantScroll.getVerticalScrollBar().addAdjustmentListener(e -> loadOccupantsInView());
        JSplitPane left = new JSplitPane(JSplitPane.VERTICAL_SPLIT, topicPanel, occupantPanel);
        left.setResizeWeight(0.6);
        left.setBorder(null);
        left.setMinimumSize(new Dimension(150, 200));

        // Middle: the active topic's conversation and the input.
        conversationList.setCellRenderer(new MessageCell(() -> room, false));
        conversationList.setSelectionMode(ListSelectionModel.SINGLE_SELECTION);
        timelineList.setCellRenderer(new MessageCell(() -> room, true));
        timelineList.setSelectionMode(ListSelectionModel.SINGLE_SELECTION);
        installMessageMenu(conversationList);
        installMessageMenu(timelineList);
        rewrapOnResize(conversationList);
        rewrapOnResize(timelineList);
        JButton cancelReply = new JButton("×");
        cancelReply.setToolTipText("Do not reply (Esc)");
        cancelReply.addActionListener(e -> setReplyTarget(null));
        replyBar.setBorder(BorderFactory.createEmptyBorder(4, 8, 4, 4));
        replyBar.setBackground(MessageCell.REPLY_TO_ME);
        replyBar.add(replyLabel, BorderLayout.CENTER);
        replyBar.add(cancelReply, BorderLayout.EAST);
        replyBar.setVisible(false);
        JButton send = new JButton("Send");
        send.addActionListener(e -> sendInput());
        input.addActionListener(e -> sendInput());
        input.putClientProperty("JTextField.placeholderText", "Message (Enter sends, tagged with the active topic)");
        JPanel inputRow = new JPanel(new BorderLayout(6, 0));
        inputRow.setBorder(BorderFactory.createEmptyBorder(6, 8, 8, 8));
        inputRow.add(input, BorderLayout.CENTER);
        inputRow.add(send, BorderLayout.EAST);
        JPanel bottom = new JPanel(new BorderLayout());
        bottom.add(replyBar, BorderLayout.NORTH);
        bottom.add(inputRow, BorderLayout.CENTER);
        JPanel middle = new JPanel(new BorderLayout());
        middle.add(conversationTitle, BorderLayout.NORTH);
        middle.add(new JScrollPane(conversationList), BorderLayout.CENTER);
        middle.add(bottom, BorderLayout.SOUTH);
        middle.setMinimumSize(new Dimension(320, 200));

        // Right: everything, colour-tagged, or what the search finds.
        JPanel right = new JPanel(new BorderLayout());
        right.add(timelineTitle, BorderLayout.NORTH);
        right.add(new JScrollPane(timelineList), BorderLayout.CENTER);
        right.setMinimumSize(new Dimension(240, 200));

        JSplitPane centre = new JSplitPane(JSplitPane.HORIZONTAL_SPLIT, middle, right);
        centre.setResizeWeight(0.6);
        centre.setBorder(null);
        JSplitPane main = new JSplitPane(JSplitPane.HORIZONTAL_SPLIT, left, centre);
        main.setDividerLocation(210);
        main.setBorder(null);

        // Top: the room, the search, the settings; then the banners.
        search.putClientProperty("JTextField.placeholderText", "Search (Ctrl+F)");
        search.putClientProperty("JTextField.showClearButton", true);
        search.getDocument().addDocumentListener(new DocumentListener() {
            @Override
            public void insertUpdate(DocumentEvent e) {
                refreshTimeline();
            }

            @Override
            public void removeUpdate(DocumentEvent e) {
                refreshTimeline();
            }

            @Override
            public void changedUpdate(DocumentEvent e) {
                refreshTimeline();
            }
        });
        JButton settings = new JButton("Settings…");
        settings.addActionListener(e -> new SettingsDialog(this, controller).setVisible(true));
        JButton connect = new JButton("Connect…");
        connect.addActionListener(e -> new ConnectDialog(this, controller).setVisible(true));
        roomTitle.setFont(roomTitle.getFont().deriveFont(Font.BOLD, roomTitle.getFont().getSize2D() * 1.15f));
        JPanel toolbar = new JPanel(new BorderLayout(8, 0));
        toolbar.setBorder(BorderFactory.createEmptyBorder(6, 10, 6, 8));
        toolbar.add(roomTitle, BorderLayout.CENTER);
        JPanel tools = new JPanel(new FlowLayout(FlowLayout.RIGHT, 6, 0));
        tools.add(search);
        tools.add(settings);
        tools.add(connect);
        toolbar.add(tools, BorderLayout.EAST);
        toolbar.setAlignmentX(Component.LEFT_ALIGNMENT);
        toolbar.setMaximumSize(new Dimension(Integer.MAX_VALUE, toolbar.getPreferredSize().height));
        JPanel top = new JPanel();
        top.setLayout(new BoxLayout(top, BoxLayout.Y_AXIS));
        top.add(toolbar);
        top.add(notice);
        top.add(problem);

        // Bottom: the status bar.
        JPanel status = new JPanel(new FlowLayout(FlowLayout.LEFT, 14, 3));
        status.setBorder(BorderFactory.createMatteBorder(1, 0, 0, 0, Color.LIGHT_GRAY));
        status.add(statusState);
        status.add(statusMode);
        status.add(statusCounts);
        status.add(statusReplies);
        statusReplies.setForeground(new Color(0xb35c00));
        statusReplies.addMouseListener(new MouseAdapter() {
            @Override
            public void mouseClicked(MouseEvent e) {
                showReplies();
            }
        });

        getContentPane().setLayout(new BorderLayout());
        getContentPane().add(top, BorderLayout.NORTH);
        getContentPane().add(main, BorderLayout.CENTER);
        getContentPane().add(status, BorderLayout.SOUTH);
    }

    /** Fits a 1366×768 screen (and a HiDPI one, whose logical size the toolkit reports): never larger than the usable area. */
    private void fitToScreen() {
        GraphicsConfiguration gc = getGraphicsConfiguration();
        Rectangle screen = gc.getBounds();
        Insets taskbar = Toolkit.getDefaultToolkit().getScreenInsets(gc);
        int w = Math.min(1280, screen.width - taskbar.left - taskbar.right);
        int h = Math.min(800, screen.height - taskbar.top - taskbar.bottom);
        setMinimumSize(new Dimension(Math.min(760, w), Math.min(480, h)));
        setBounds(screen.x + taskbar.left + (screen.width - taskbar.left - taskbar.right - w) / 2,
                screen.y + taskbar.top + (screen.height - taskbar.top - taskbar.bottom - h) / 2, w, h);
    }

    /** Rows wrap their text to the list's width: recompute heights when it changes. */
    private static void rewrapOnResize(JList<ChatMessage> list) {
        list.addComponentListener(new ComponentAdapter() {
            @Override
            public void componentResized(ComponentEvent e) {
                list.setFixedCellHeight(10);
                list.setFixedCellHeight(-1);
            }
        });
    }

    private void bindKeys() {
        JComponent root = getRootPane();
        for (int n = 1; n <= 9; n++) {
            int topic = n;
            String name = "topic" + n;
            root.getInputMap(JComponent.WHEN_IN_FOCUSED_WINDOW)
                    .put(KeyStroke.getKeyStroke(KeyEvent.VK_0 + n, InputEvent.CTRL_DOWN_MASK), name);
            root.getActionMap().put(name, action(() -> controller.activateNth(topic)));
        }
        root.getInputMap(JComponent.WHEN_IN_FOCUSED_WINDOW).put(KeyStroke.getKeyStroke(KeyEvent.VK_F, InputEvent.CTRL_DOWN_MASK), "search");
        root.getActionMap().put("search", action(search::requestFocusInWindow));
        root.getInputMap(JComponent.WHEN_IN_FOCUSED_WINDOW).put(KeyStroke.getKeyStroke(KeyEvent.VK_ESCAPE, 0), "cancelReply");
        root.getActionMap().put("cancelReply", action(() -> setReplyTarget(null)));
    }

    private static AbstractAction action(Runnable r) {
        return new AbstractAction() {
            @Override
            public void actionPerformed(java.awt.event.ActionEvent e) {
                r.run();
            }
        };
    }

    private void installMessageMenu(JList<ChatMessage> list) {
        list.addMouseListener(new MouseAdapter() {
            @Override
            public void mousePressed(MouseEvent e) {
                popup(e);
            }

            @Override
            public void mouseReleased(MouseEvent e) {
                popup(e);
            }

            private void popup(MouseEvent e) {
                if (!e.isPopupTrigger()) {
                    return;
                }
                int i = list.locationToIndex(e.getPoint());
                if (i < 0) {
                    return;
                }
                list.setSelectedIndex(i);
                messageMenu(list.getModel().getElementAt(i)).show(list, e.getX(), e.getY());
            }
        });
    }

    /** The context menu of a message: reply, copy. */
    JPopupMenu messageMenu(ChatMessage m) {
        JPopupMenu menu = new JPopupMenu();
        JMenuItem reply = new JMenuItem("Reply to " + m.nick());
        reply.setEnabled(m.stanzaId() != null);
        reply.addActionListener(e -> setReplyTarget(m));
        JMenuItem copy = new JMenuItem("Copy text");
        copy.addActionListener(e -> Toolkit.getDefaultToolkit().getSystemClipboard()
                .setContents(new java.awt.datatransfer.StringSelection(m.body()), null));
        menu.add(reply);
        menu.add(copy);
        return menu;
    }

    // ---- actions -------------------------------------------------------------------------------

    /** Starts (or with null, cancels) a reply to {@code m}. */
    void setReplyTarget(ChatMessage m) {
        replyTarget = m;
        replyBar.setVisible(m != null);
        if (m != null) {
            String text = m.body().length() > 80 ? m.body().substring(0, 80) + "…" : m.body();
            replyLabel.setText("Replying to " + m.nick() + ": “" + text + "”");
            input.requestFocusInWindow();
        }
        revalidate();
    }

    void sendInput() {
        String text = input.getText().strip();
        if (text.isEmpty()) {
            return;
        }
        controller.send(text, replyTarget);
        input.setText("");
        setReplyTarget(null);
    }

    private void newTopic() {
        String name = JOptionPane.showInputDialog(this, "A new topic (one word; it becomes a #hashtag):", "New topic",
                JOptionPane.PLAIN_MESSAGE);
        if (name != null && !name.isBlank()) {
            String t = controller.createTopic(name);
            if (t != null) {
                controller.activate(t);
            }
        }
    }

    /** Shows the replies to the user in the timeline and clears the counter. */
    private void showReplies() {
        search.setText("");
        for (int i = 0; i < timeline.size(); i++) {
            if (room.isReplyToMe(timeline.get(i))) {
                timelineList.setSelectedIndex(i);
                timelineList.ensureIndexIsVisible(i);
            }
        }
        room.repliesSeen();
        notice.hideBanner();
    }

    // ---- the controller's view -----------------------------------------------------------------

    @Override
    public void roomChanged(JoomRoom newRoom) {
        room = newRoom;
        bigRoom = null;
        room.addListener(this);
        setReplyTarget(null);
        roomTitle.setText(controller.settings().room());
        refreshAll();
    }

    @Override
    public void state(ConnectionState state, Mode mode) {
        statusState.setText("● " + state.words() + (state == ConnectionState.CONNECTED ? " as " + controller.settings().jid() : ""));
        statusState.setForeground(state == ConnectionState.CONNECTED ? new Color(0x2a8a2a)
                : state == ConnectionState.RECONNECTING ? new Color(0xb35c00) : Color.GRAY);
        if (mode == null) {
            statusMode.setText("");
        } else if (mode == Mode.RELAXED) {
            var stated = controller.session().stated();
            statusMode.setText((controller.session().presenceLevel() != null ? "Big room, moderators' presences only. " : "")
                    + "Relaxed mode: the active topic at once, the rest within " + controller.settings().timeSeconds()
                    + " s or " + (stated != null ? stated.volume() : controller.settings().volume()) + " messages, compressed");
        } else {
            statusMode.setText("Standard mode: the room sends everything at once; Joom filters the topics");
        }
        updateCounts();
    }

    @Override
    public void occupants(List<String> nicks) {
        present = List.copyOf(nicks);
        if (bigRoom != null) {
            showBigRoom(true);
            return;
        }
        occupants.clear();
        occupants.addAll(nicks);
        occupantsTitle.setText("Occupants (" + nicks.size() + ")");
    }

    @Override
    public void occupantPages(OccupantPages pages) {
        boolean fresh = bigRoom == null || pages.nicks().size() < bigRoom.nicks().size();
        bigRoom = pages;
        showBigRoom(fresh);
        SwingUtilities.invokeLater(this::loadOccupantsInView); // once laid out: is the end still in view?
    }

    /**
     * A big room's list: those whose presences come (★: the moderators and the user), then everyone
     * as loaded. {@code rebuild}: from scratch; otherwise only the newly listed nicks are appended.
     */
    private void showBigRoom(boolean rebuild) {
        int listed = bigRoom.nicks().size();
        if (rebuild) {
            occupants.clear();
            occupants.addAll(present.stream().map(n -> "★ " + n).toList());
            occupants.addAll(bigRoom.nicks());
        } else {
            int shown = occupants.size() - present.size();
            occupants.addAll(bigRoom.nicks().subList(Math.min(shown, listed), listed));
        }
        String size = bigRoom.count() == null ? "?" : String.format(java.util.Locale.ROOT, "%,d", bigRoom.count());
        occupantsTitle.setText("<html>Occupants (" + size + ")<br><small>" + listed + " listed"
                + (bigRoom.complete() ? "" : ", more as you scroll") + "</small></html>");
    }

    /** Asks for the next page of a big room's occupants while the end of the list is in view. */
    private void loadOccupantsInView() {
        if (bigRoom == null || bigRoom.complete()) {
            return;
        }
        javax.swing.BoundedRangeModel m = occupantScroll.getVerticalScrollBar().getModel();
        if (m.getValue() + m.getExtent() >= m.getMaximum() - m.getExtent() / 2) {
            controller.loadMoreOccupants();
        }
    }

    @Override
    public void problem(String plainWords) {
        problem.show(plainWords, 12_000);
    }

    // ---- the model's events --------------------------------------------------------------------

    @Override
    public void messageAdded(ChatMessage message, int index) {
        refreshConversation();
        refreshTimeline();
        updateCounts();
    }

    @Override
    public void topicsChanged() {
        refreshTopics();
        refreshConversation();
        updateTitle();
    }

    @Override
    public void replyToMe(ChatMessage reply) {
        String where = reply.mainTopic() == null ? "" : " in #" + reply.mainTopic();
        String text = reply.body().length() > 90 ? reply.body().substring(0, 90) + "…" : reply.body();
        notice.show("↩ " + reply.nick() + " replied to you" + where + ": “" + text + "”  (click the counter below to see it)", 20_000);
        if (!isActive()) {
            if (SystemTray.isSupported()) {
                trayNotify(reply.nick() + " replied to you" + where, reply.body());
            }
            if (Taskbar.isTaskbarSupported() && Taskbar.getTaskbar().isSupported(Taskbar.Feature.USER_ATTENTION_WINDOW)) {
                Taskbar.getTaskbar().requestWindowUserAttention(this);
            }
        }
        updateTitle();
        updateCounts();
    }

    private void trayNotify(String caption, String text) {
        try {
            if (trayIcon == null) {
                BufferedImage icon = new BufferedImage(16, 16, BufferedImage.TYPE_INT_ARGB);
                java.awt.Graphics2D g = icon.createGraphics();
                g.setColor(TopicColours.of(0));
                g.fillOval(1, 1, 14, 14);
                g.dispose();
                trayIcon = new TrayIcon(icon, "Joom");
                trayIcon.setImageAutoSize(true);
                trayIcon.addActionListener(e -> toFront());
                SystemTray.getSystemTray().add(trayIcon);
            }
            trayIcon.displayMessage(caption, text, TrayIcon.MessageType.INFO);
        } catch (java.awt.AWTException | UnsupportedOperationException e) {
            trayIcon = null; // the banner in the window says it anyway
        }
    }

    // ---- refreshing ----------------------------------------------------------------------------

    private void refreshAll() {
        refreshTopics();
        refreshConversation();
        refreshTimeline();
        updateTitle();
    }

    private void refreshTopics() {
        topics.clear();
        room.topics().forEach(topics::addElement);
        for (int i = 0; i < topics.size(); i++) {
            if (topics.get(i).active()) {
                topicList.setSelectedIndex(i);
            }
        }
    }

    private void refreshConversation() {
        boolean atEnd = atEnd(conversationList);
        conversation.clear();
        room.conversation().forEach(conversation::addElement);
        String active = room.activeTopic();
        conversationTitle.setText(active == null ? "No topic chosen" : "#" + active + "  —  " + messages(conversation.size()));
        conversationTitle.setForeground(TopicColours.of(room.colourOf(active)));
        if (atEnd) {
            scrollToEnd(conversationList);
        }
    }

    private void refreshTimeline() {
        boolean atEnd = atEnd(timelineList);
        timeline.clear();
        String q = search.getText();
        List<ChatMessage> shown = room.search(q);
        shown.forEach(timeline::addElement);
        int all = room.timeline().size();
        timelineTitle.setText(q.isBlank() ? "Timeline  —  every topic, " + messages(all)
                : "Search “" + q.strip() + "”  —  " + shown.size() + " of " + all);
        if (atEnd) {
            scrollToEnd(timelineList);
        }
    }

    private static boolean atEnd(JList<?> list) {
        JScrollBar bar = ((JScrollPane) SwingUtilities.getAncestorOfClass(JScrollPane.class, list)).getVerticalScrollBar();
        return bar.getValue() + bar.getVisibleAmount() >= bar.getMaximum() - 4;
    }

    private static void scrollToEnd(JList<?> list) {
        SwingUtilities.invokeLater(() -> {
            int last = list.getModel().getSize() - 1;
            if (last >= 0) {
                list.ensureIndexIsVisible(last);
            }
        });
    }

    private void updateTitle() {
        int replies = room.unseenReplies();
        String active = room.activeTopic() == null ? "" : " — #" + room.activeTopic();
        setTitle((replies > 0 ? "(" + replies + ") " : "") + "Joom — " + controller.settings().room() + active);
    }

    private void updateCounts() {
        long bytes = controller.session().bytesReceived();
        statusCounts.setText(messages(controller.session().messagesReceived()) + ", " + bytes(bytes) + " received");
        int replies = room.unseenReplies();
        statusReplies.setText(replies == 0 ? "" : "↩ " + replies + (replies == 1 ? " reply" : " replies") + " to you");
    }

    static String messages(long n) {
        return n + (n == 1 ? " message" : " messages");
    }

    static String bytes(long n) {
        if (n < 1024) {
            return n + " B";
        }
        if (n < 1024 * 1024) {
            return String.format(Locale.ROOT, "%.1f kB", n / 1024.0);
        }
        return String.format(Locale.ROOT, "%.1f MB", n / (1024.0 * 1024));
    }

    // ---- for the window test -------------------------------------------------------------------

    JoomRoom room() {
        return room;
    }

    String statusText() {
        return statusState.getText() + " | " + statusMode.getText() + " | " + statusCounts.getText() + " | " + statusReplies.getText();
    }

    String noticeText() {
        return notice.isVisible() ? notice.text() : "";
    }

    /** Paints the window into a PNG at {@code scale} (2 for a HiDPI rendering). */
    void snapshot(Path png, double scale) throws IOException {
        BufferedImage image = new BufferedImage((int) Math.round(getWidth() * scale), (int) Math.round(getHeight() * scale),
                BufferedImage.TYPE_INT_RGB);
        java.awt.Graphics2D g = image.createGraphics();
        g.scale(scale, scale);
        g.setRenderingHint(java.awt.RenderingHints.KEY_TEXT_ANTIALIASING, java.awt.RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        getRootPane().printAll(g);
        g.dispose();
        Files.createDirectories(png.getParent());
        ImageIO.write(image, "png", png.toFile());
    }

    /** A topic in the list: its colour, name, unread counter; the active one bold. */
    private final class TopicCell extends DefaultListCellRenderer {
        @Override
        public Component getListCellRendererComponent(JList<?> list, Object value, int index, boolean selected, boolean focus) {
            TopicView t = (TopicView) value;
            super.getListCellRendererComponent(list, value, index, selected, false);
            String key = index < 9 ? "<span style='color:#999999'>" + (index + 1) + "</span>&nbsp;&nbsp;" : "";
            String unread = t.unread() > 0 ? "&nbsp;&nbsp;<b style='color:#ffffff;background:#d62728'>&nbsp;" + t.unread() + "&nbsp;</b>" : "";
            String colour = String.format("#%06x", TopicColours.of(t.colour()).getRGB() & 0xffffff);
            setText("<html>" + key + "<span style='color:" + colour + "'>■</span>&nbsp;"
                    + (t.active() ? "<b>#" + t.name() + "</b>" : "#" + t.name()) + unread + "</html>");
            setBorder(BorderFactory.createEmptyBorder(3, 8, 3, 8));
            setToolTipText(t.messages() + " messages" + (t.unread() > 0 ? ", " + t.unread() + " unread" : ""));
            return this;
        }
    }

    /** A coloured line of text at the top of the window that hides itself after a while. */
    private static final class Banner extends JPanel {
        private final JLabel label = new JLabel();
        private final Timer hide;

        Banner(Color background) {
            super(new BorderLayout());
            setBackground(background);
            setBorder(BorderFactory.createEmptyBorder(5, 10, 5, 6));
            JButton close = new JButton("×");
            close.setBorderPainted(false);
            close.setContentAreaFilled(false);
            close.addActionListener(e -> hideBanner());
            add(label, BorderLayout.CENTER);
            add(close, BorderLayout.EAST);
            add(Box.createVerticalStrut(0), BorderLayout.WEST);
            setVisible(false);
            setAlignmentX(Component.LEFT_ALIGNMENT);
            hide = new Timer(10_000, e -> hideBanner());
            hide.setRepeats(false);
        }

        void show(String text, int millis) {
            label.setText(text);
            setVisible(true);
            setMaximumSize(new Dimension(Integer.MAX_VALUE, getPreferredSize().height));
            hide.setInitialDelay(millis);
            hide.restart();
            revalidate();
        }

        void hideBanner() {
            setVisible(false);
            revalidate();
        }

        String text() {
            return label.getText();
        }
    }
}
