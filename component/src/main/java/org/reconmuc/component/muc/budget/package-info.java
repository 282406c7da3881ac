/**
 * A room-wide budget of messages and presences for big public rooms, as Prosody's
 * {@code mod_muc_limits} (ejabberd's {@code room_shaper} shapes the same traffic by bytes): the
 * service sets it ({@code room-events-per-second}), {@link org.reconmuc.component.muc.budget.RoomEventBudget}
 * counts it.
 */
package org.reconmuc.component.muc.budget;
