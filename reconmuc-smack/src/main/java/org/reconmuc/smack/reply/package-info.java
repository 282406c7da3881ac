/**
 * XEP-0461 Message Replies ({@code urn:xmpp:reply:0}), which Smack 4.4 lacks: a reply names its
 * parent by the room's stanza-id (XEP-0359) and the parent's author. ReConMUC delivers a reply to
 * its parent's author at once (reconmuc.md §5.5, §5.6).
 */
package org.reconmuc.smack.reply;
