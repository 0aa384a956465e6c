// stripe-node's client constructed in a browser app, for comparison.
import Stripe from 'stripe';

globalThis.client = new Stripe('sk_test_000');
