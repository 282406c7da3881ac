/**
 * Joom's window (Swing with FlatLaf): the topics with their unread counters and colours, the
 * active topic's conversation, the global timeline colour-tagged by topic (and the search over it),
 * the occupants, replies from a context menu, Ctrl+1..9 for the topics, a notification for replies
 * to the user, a status bar (connection, mode, messages and bytes received), and the connect and
 * settings dialogs. {@link org.reconmuc.joom.ui.JoomApp} is the entry point ({@code java -jar joom.jar}).
 */
package org.reconmuc.joom.ui;
