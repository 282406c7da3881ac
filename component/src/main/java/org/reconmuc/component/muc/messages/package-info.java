/**
 * What occupants say in a room (XEP-0045 §7.4 messages to all occupants, §7.5 private messages,
 * §7.8 invitations, §7.3 and §8.1 the subject), taken back (XEP-0308 corrections, XEP-0424 retractions,
 * XEP-0425 moderation, reconmuc.md §5.14), archived (XEP-0313), and the flood control of each
 * sender (messages, presences and IQs: {@code policy-violation}).
 */
package org.reconmuc.component.muc.messages;
