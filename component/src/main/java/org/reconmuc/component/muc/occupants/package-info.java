/**
 * Who is in a room and how the others see them (XEP-0045 §5.1 roles; §7.2 entering, the join
 * sequence and the discussion history asked for, §7.2.15; §7.14 exiting; §7.6 nickname changes;
 * §7.7 availability; ghosts and removals; §15.6 status codes), registering with a room and
 * reserved nicknames (§7.10, §7.12), voice requests (§7.13, §8.6), and XEP-0421 occupant ids.
 */
package org.reconmuc.component.muc.occupants;
