/** Smack providers for the elements of ReConMUC ({@code urn:reconmuc:0}); {@link org.reconmuc.smack.provider.ReconMucProviders#register()} registers them. */
package org.reconmuc.smack.provider;
