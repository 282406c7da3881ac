/**
 * ReConMUC ({@code urn:reconmuc:0}, {@code xep-spec/reconmuc.md}: adaptable consistency
 * requirements for XEP-0045 Multi-User Chat) for Smack 4.4. {@link org.reconmuc.smack.ReconMucManager}
 * discovers a room's support (XEP-0030, XEP-0128 limits), states and updates the occupant's
 * requirements, and hands every message of a received batch to listeners as an ordinary
 * {@link org.jivesoftware.smack.packet.Message} carrying its XEP-0203 delay. The elements are in
 * {@code element}, their providers in {@code provider}; batches are read by the shared codec
 * ({@code org.reconmuc.codec.batch}) with the spec's strict rules.
 */
package org.reconmuc.smack;
