package org.reconmuc.component.muc.avatar;

import org.dom4j.DocumentHelper;
import org.dom4j.Element;

/**
 * XEP-0153's {@code <x xmlns='vcard-temp:x:update'><photo>HASH</photo></x>}, on the presence a
 * room sends from its bare JID: the hash of its avatar, or an empty {@code <photo/>} when it has
 * none (any more).
 */
public record AvatarUpdate(String hash) {
    public static final String ELEMENT = "x";
    public static final String NAMESPACE = "vcard-temp:x:update";

    /** The element, {@code hash} null: an empty photo. */
    public Element toElement() {
        Element x = DocumentHelper.createElement(DocumentHelper.createQName(ELEMENT,
                DocumentHelper.createNamespace("", NAMESPACE)));
        Element photo = x.addElement("photo");
        if (hash != null) {
            photo.setText(hash);
        }
        return x;
    }
}
