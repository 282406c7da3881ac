package org.reconmuc.joom.ui;

import java.awt.BorderLayout;
import java.awt.Color;
import java.awt.Component;
import java.awt.Dimension;
import java.awt.FlowLayout;
import java.awt.Font;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.function.Supplier;
import javax.swing.BorderFactory;
import javax.swing.JLabel;
import javax.swing.JList;
import javax.swing.JPanel;
import javax.swing.JTextArea;
import javax.swing.ListCellRenderer;
import javax.swing.UIManager;
import org.reconmuc.joom.model.Arrival;
import org.reconmuc.joom.model.ChatMessage;
import org.reconmuc.joom.model.JoomRoom;

/**
 * How a message looks in a list: a strip in its topic's colour, the sender, the time the room
 * received it, its topic, a "delayed" mark when it came in a batch (or "history"), a reply mark,
 * and the text, wrapped. Replies to the user and mentions of the user are highlighted.
 */
final class MessageCell extends JPanel implements ListCellRenderer<ChatMessage> {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneId.systemDefault());
    static final Color REPLY_TO_ME = new Color(0xffe7c2);
    static final Color MENTION = new Color(0xfff6b3);
    private static final Color DELAYED = new Color(0xb35c00);

    private final Supplier<JoomRoom> rooms;
    private final boolean showTopic;
    private final JPanel strip = new JPanel();
    private final JLabel nick = new JLabel();
    private final JLabel time = new JLabel();
    private final JLabel topic = new JLabel();
    private final JLabel marks = new JLabel();
    private final JTextArea body = new JTextArea();

    /** {@code showTopic}: the timeline shows each message's topic, the conversation (one topic) need not. */
    MessageCell(Supplier<JoomRoom> rooms, boolean showTopic) {
        super(new BorderLayout());
        this.rooms = rooms;
        this.showTopic = showTopic;
        strip.setPreferredSize(new Dimension(5, 1));
        add(strip, BorderLayout.WEST);
        JPanel header = new JPanel(new FlowLayout(FlowLayout.LEFT, 6, 0));
        header.setOpaque(false);
        nick.setFont(nick.getFont().deriveFont(Font.BOLD));
        time.setForeground(Color.GRAY);
        marks.setFont(marks.getFont().deriveFont(Font.ITALIC));
        header.add(nick);
        header.add(time);
        header.add(topic);
        header.add(marks);
        body.setLineWrap(true);
        body.setWrapStyleWord(true);
        body.setEditable(false);
        body.setOpaque(false);
        body.setBorder(BorderFactory.createEmptyBorder(1, 6, 0, 4));
        JPanel content = new JPanel(new BorderLayout());
        content.setOpaque(false);
        content.setBorder(BorderFactory.createEmptyBorder(4, 4, 5, 4));
        content.add(header, BorderLayout.NORTH);
        content.add(body, BorderLayout.CENTER);
        add(content, BorderLayout.CENTER);
    }

    @Override
    public Component getListCellRendererComponent(JList<? extends ChatMessage> list, ChatMessage m, int index,
            boolean selected, boolean focused) {
        JoomRoom room = rooms.get();
        int colour = room.colourOf(m.mainTopic());
        strip.setBackground(TopicColours.of(colour));
        nick.setText(m.nick());
        nick.setForeground(m.mine() ? new Color(0x1f5fa8) : UIManager.getColor("Label.foreground"));
        time.setText(TIME.format(m.sentAt()));
        topic.setVisible(showTopic && m.mainTopic() != null);
        topic.setText(m.mainTopic() == null ? "" : "#" + m.mainTopic());
        topic.setForeground(TopicColours.of(colour));
        StringBuilder mark = new StringBuilder();
        boolean replyToMe = room.isReplyToMe(m);
        if (m.arrival() == Arrival.BATCHED) {
            mark.append("delayed");
        } else if (m.arrival() == Arrival.HISTORY) {
            mark.append("history");
        }
        if (m.replyToNick() != null || m.replyToId() != null) {
            if (!mark.isEmpty()) {
                mark.append(" · ");
            }
            mark.append(replyToMe ? "replied to you" : "reply to " + (m.replyToNick() == null ? "a message" : m.replyToNick()));
        }
        marks.setText(mark.toString());
        marks.setForeground(m.delayed() ? DELAYED : Color.GRAY);
        body.setText(m.body());
        Color background = selected ? list.getSelectionBackground()
                : replyToMe ? REPLY_TO_ME
                : room.mentionsMe(m) ? MENTION
                : list.getBackground();
        setBackground(background);
        body.setForeground(selected ? list.getSelectionForeground() : list.getForeground());
        // Wrap the text to the list's width, so the row is as high as the text needs.
        int width = Math.max(120, list.getWidth() - 5 - 8 - 10 - (list.getInsets().left + list.getInsets().right));
        body.setSize(width, Short.MAX_VALUE);
        setToolTipText(m.delayed() ? "Arrived later than the room received it (" + m.arrival().name().toLowerCase() + ")" : null);
        return this;
    }
}
