/**
 * Legitimate English text that request bodies carry (notes, descriptions, support messages).
 * Written for this corpus; it deliberately talks *about* keys, seeds and mnemonics without
 * containing any, and uses many BIP-39 wordlist words ("wallet", "account", "about",
 * "other", "time"…) in ordinary sentences.
 */
export const PROSE_PARAGRAPHS: readonly string[] = [
  "The quick brown fox jumps over the lazy dog. This sentence contains every letter of the alphabet and is often used to test typewriters, fonts and keyboards.",
  "Quantum Custody never holds your signing keys. Your device creates them, keeps them and signs with them; we only see public keys, addresses and signatures. Never paste your seed phrase, recovery phrase or private key into a support ticket, an email or a web form: nobody from our team will ever ask for it.",
  "Withdrawal requests above the daily limit need a second approval. The approver receives a notification, reviews the destination address and the amount, and confirms on their own hardware device. If nobody approves within twenty-four hours, the request expires and the funds stay where they are.",
  "Last quarter we moved the treasury wallet to a two-of-three policy. Finance holds one key, operations holds another, and the third sits in a bank vault in Zurich. The migration took a week, mostly because the auditors wanted to watch every step and sign the minutes.",
  "Please label this account as the payroll float for the Lisbon office. It is topped up on the first business day of each month and should never hold more than what is needed for one payroll run, plus a small buffer for exchange rate moves.",
  "I tried to connect my ledger this morning and the browser kept asking for permission again and again. After clearing the site data and restarting the laptop it worked, but I would like to understand what went wrong so that it does not happen during the audit next week.",
  "Post-quantum signatures are much larger than the elliptic-curve ones we are used to. An ML-DSA-87 public key is about two and a half kilobytes and a signature is more than four and a half, so a batch of a few hundred transfers easily reaches a megabyte of JSON.",
  "Remember to rotate the webhook secret after the contractor leaves. The old endpoint keeps working for seven days, which gives the integration team enough time to deploy the new value and confirm that deliveries are still verified correctly on their side.",
  "Our office will be closed on Monday for the public holiday. Transfers submitted over the weekend will be processed on Tuesday morning, in the order in which they were approved, and you will receive the usual confirmation email for each of them.",
  "The cold storage review found nothing critical, but it did recommend that we document who may open the safe, how often the backup devices are tested and what happens if the building is not accessible for a long period of time.",
  "Can you explain why the fee estimate changed between the draft and the final transaction? The draft said a little under two dollars and the final one was almost five. I understand that network conditions move quickly, but a short note in the interface would help.",
  "Garden notes: the tomatoes need more sun than the corner bed gets after June, so next spring we will swap them with the herbs. The apple tree finally produced a decent crop, although the birds found most of the cherries before we did.",
];

/**
 * Short, realistic labels and notes: account names, tags, memo fields, status text.
 */
export const LABELS: readonly string[] = [
  "Treasury",
  "Payroll float — Lisbon",
  "Cold wallet #3",
  "ops-hot-wallet",
  "Vendor payout (March)",
  "Refund for order 1842",
  "Customer deposit",
  "DO NOT USE — legacy",
  "Approver: finance team",
  "Monthly rebalance between the hot and cold accounts",
  "public key registered from the signer app",
  "seed round investor distribution",
  "Recovery contact: legal department",
  "mnemonic backup verified on the device",
  "private key never leaves the hardware device",
  "Q3 audit sample",
  "💰 savings",
  "Überweisung an Lieferant",
  "出金申請",
];

/**
 * Common English words for generated sentences. Mixes wordlist words ("about", "other",
 * "time", "wallet") with frequent words that are not in the BIP-39 list ("the", "and",
 * "of", "to", "is"…), in roughly the proportions of real prose.
 */
export const WORD_BANK: readonly string[] = [
  "the", "the", "the", "and", "and", "of", "of", "to", "to", "a", "a", "in", "is", "it",
  "that", "for", "was", "on", "are", "with", "as", "be", "at", "by", "this", "have", "from",
  "or", "had", "not", "but", "what", "were", "we", "when", "your", "can", "said", "there",
  "use", "an", "each", "which", "she", "do", "how", "their", "if", "will", "up", "other",
  "about", "out", "many", "then", "them", "these", "so", "some", "her", "would", "make",
  "like", "him", "into", "time", "has", "look", "two", "more", "write", "go", "see",
  "number", "no", "way", "could", "people", "my", "than", "first", "been", "call", "who",
  "its", "now", "find", "long", "down", "day", "did", "get", "come", "made", "may", "part",
  "wallet", "account", "transfer", "approval", "address", "network", "policy", "device",
  "balance", "request", "customer", "office", "report", "review", "payment", "limit",
];
