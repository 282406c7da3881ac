/**
 * Moderation and spam control for big public rooms, one class per feature as Prosody's
 * {@code plugins/muc}: XEP-0500 slow mode ({@link org.reconmuc.component.muc.slowmode.SlowMode},
 * Prosody's mod_muc_slow_mode, ejabberd's {@code min_message_interval}); a room-wide budget of
 * messages and presences ({@link org.reconmuc.component.muc.budget.RoomEventBudget}, Prosody's
 * mod_muc_limits, ejabberd's {@code room_shaper}); and messages held back for everyone but the
 * moderators ({@link org.reconmuc.component.muc.delay.HeldMessages}, Prosody's
 * mod_muc_moderation_delay), who may retract them (XEP-0425) before anyone else sees them.
 *
 * <p>These classes know nothing of the room: the room's classes in {@code muc} ask them, one call
 * each, and do what they answer.
 */
package org.reconmuc.component.muc.moderation;
