/**
 * Activity for those not in a room.
 *
 * <p>XEP-0437 (Room Activity Indicators), as Prosody's {@code mod_muc_rai} does it: a session
 * subscribes with a directed presence carrying {@code <rai xmlns='urn:xmpp:rai:0'/>} to the
 * service's address, and the service tells it once per room — a message from the service with
 * {@code <activity>room@service</activity>} — that something was said in a room it is not in,
 * until it joins that room again ({@link RoomActivity}). Which rooms: those it left while
 * subscribed, and those where its bare JID is a member, admin or owner; a room with activity since
 * the user was last in it is named at once. The subscription ends with the session's unavailable
 * presence to the service (its server sends one when it goes offline); the service holds at most
 * {@code rai-max-subscribers} ({@link ActivitySubscriptions}, Prosody's
 * {@code muc_rai_max_subscribers}). With several instances the subscribers are the service's, shared
 * through the store ({@link SharedSubscriptions}), so every instance's rooms notify each of them.
 *
 * <p>XEP-0502 (MUC Activity Indicator): the messages per hour of a public, persistent room that
 * anyone may enter, as the field {@code {urn:xmpp:muc-activity}message-activity} of its
 * {@code muc#roominfo} form, from XEP-0502's shift register of hourly counters
 * ({@link MessageRate}), on the room's clock.
 *
 * <p>A room reaches this package only through {@link ActivityHost}; {@link RoomActivity} runs on
 * the room's thread, {@link ActivitySubscriptions} is shared by the service's threads.
 */
package org.reconmuc.component.activity;
