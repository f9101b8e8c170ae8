export * from './cup-terms';
export * from './prize-pool';
export * from './refund-attempt';
