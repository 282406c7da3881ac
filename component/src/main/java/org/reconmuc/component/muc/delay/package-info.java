/**
 * Messages held back for the moderators, as Prosody's {@code mod_muc_moderation_delay}: the owner's
 * option {@link org.reconmuc.component.muc.delay.ModerationDelayOption} sets the delay, and
 * {@link org.reconmuc.component.muc.delay.HeldMessages} keeps what is held — pointers into the room's
 * log, released by its fan-out — so that moderators may retract a message (XEP-0425) before anyone
 * else sees it.
 */
package org.reconmuc.component.muc.delay;
