/**
 * Joom's model, without Swing and without XMPP: the room's messages in time order (delayed ones
 * placed at the time the room received them), its topics with unread counters, the active topic
 * and the conversation it selects, replies and mentions of the user, the requirements to send
 * when the active topic or the settings change (as a diff), the search, and the settings file.
 * Everything here is deterministic and unit-tested; the session layer feeds it, the UI shows it.
 */
package org.reconmuc.joom.model;
