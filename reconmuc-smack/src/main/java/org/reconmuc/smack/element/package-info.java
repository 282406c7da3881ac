/**
 * The elements of ReConMUC ({@code urn:reconmuc:0}, and the paper's {@code http://joom.com/extensions}
 * where the spec accepts it): {@code <consistency-requirements/>} in an IQ, {@code <topic/>} in a
 * message, {@code <batch/>} in a message from the room. Immutable; each has {@code ELEMENT} and
 * {@code NAMESPACE}.
 */
package org.reconmuc.smack.element;
