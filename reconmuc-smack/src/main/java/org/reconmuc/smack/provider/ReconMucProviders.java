package org.reconmuc.smack.provider;

import org.jivesoftware.smack.provider.ProviderManager;
import org.reconmuc.codec.XmlNamespaces;
import org.reconmuc.smack.element.BatchElement;
import org.reconmuc.smack.element.ConsistencyRequirementsIQ;
import org.reconmuc.smack.element.TopicElement;
import org.reconmuc.smack.reply.element.ReplyElement;
import org.reconmuc.smack.reply.provider.ReplyProvider;

/** Registers the providers with Smack; {@code ReconMucManager} does so when it is first used. */
public final class ReconMucProviders {
    private static boolean registered;

    private ReconMucProviders() {
    }

    /** Registers every provider (idempotent). */
    public static synchronized void register() {
        if (registered) {
            return;
        }
        for (String ns : new String[] {XmlNamespaces.RECONMUC, XmlNamespaces.JOOM}) {
            ProviderManager.addIQProvider(ConsistencyRequirementsIQ.ELEMENT, ns, ConsistencyRequirementsIQProvider.INSTANCE);
            ProviderManager.addExtensionProvider(TopicElement.ELEMENT, ns, TopicProvider.INSTANCE);
        }
        ProviderManager.addExtensionProvider(BatchElement.ELEMENT, BatchElement.NAMESPACE, BatchProvider.INSTANCE);
        ProviderManager.addExtensionProvider(ReplyElement.ELEMENT, ReplyElement.NAMESPACE, ReplyProvider.INSTANCE);
        registered = true;
    }
}
