package org.reconmuc.joom.model;

/**
 * A topic as the topic list shows it.
 *
 * @param name the normalised topic
 * @param colour its colour's index, fixed when the topic first appears
 * @param unread messages of this topic that arrived while another topic was active
 * @param messages messages of this topic received
 * @param active whether it is the active topic
 */
public record TopicView(String name, int colour, int unread, int messages, boolean active) {
}
