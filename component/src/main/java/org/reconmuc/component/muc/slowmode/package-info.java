/**
 * XEP-0500 MUC slow mode, as Prosody's {@code mod_muc_slow_mode} (ejabberd's
 * {@code min_message_interval}): the owner's option {@link org.reconmuc.component.muc.slowmode.SlowModeOption}
 * sets how many seconds a user waits between two messages with a body, and
 * {@link org.reconmuc.component.muc.slowmode.SlowMode} refuses one that comes sooner.
 */
package org.reconmuc.component.muc.slowmode;
