import type { IDataObject } from 'n8n-workflow';

import { MAX_REMEMBERED } from '../../../nodes/AbbyyVantage/constants';
import {
	DELIVERIES_RETAINED_MS,
	Deliveries,
	EVENT_IDS_RETAINED_MS,
	STATIC_DATA_KEY,
	deliveriesOf,
	deliveryKey,
} from '../../../nodes/AbbyyVantage/vantage/deliveries';

const T0 = Date.UTC(2026, 0, 1);
const stored = (global: IDataObject) =>
	global[STATIC_DATA_KEY] as {
		delivered: Record<string, number>;
		events: Record<string, number>;
		floor?: number;
	};

describe('the registry of deliveries (nodes/AbbyyVantage/vantage/deliveries.ts)', () => {
	test('keys: one per state and transaction, without case', () => {
		expect(deliveryKey('completed', 'ABC-1')).toBe('completed:abc-1');
		expect(deliveryKey('review', 'abc-1')).not.toBe(deliveryKey('completed', 'abc-1'));
	});

	test('admit: a replayed event id, a delivered or a claimed key refuse; a claim is released or delivered', () => {
		const registry = new Deliveries();
		const key = deliveryKey('completed', 't1');
		expect(registry.admit('e1', key, [], T0)).toBeUndefined();
		expect(registry.status(key)).toBe('pending');
		expect(registry.admit('e1', key, [], T0 + 1)).toBe('replayed');
		expect(registry.admit('e2', key, [], T0 + 1)).toBe('pending');
		registry.release(key);
		expect(registry.admit('e3', key, [], T0 + 2)).toBeUndefined();
		registry.deliver(key, T0 + 3);
		expect(registry.admit('e4', key, [], T0 + 4)).toBe('delivered');
		// A review push for a transaction whose completion was delivered is refused too.
		expect(registry.admit('e5', deliveryKey('review', 't1'), [key], T0 + 5)).toBe('delivered');
		// An event id is remembered only as long as a signed request stays fresh.
		expect(
			registry.admit('e1', deliveryKey('completed', 't2'), [], T0 + EVENT_IDS_RETAINED_MS + 1),
		).toBeUndefined();
	});

	test('claims in flight are never written to the durable copy; delivered keys are', () => {
		const registry = new Deliveries();
		registry.claim(deliveryKey('completed', 'pending'), T0);
		registry.deliver(deliveryKey('completed', 'done'), T0);
		const global: IDataObject = {};
		registry.store(global, T0);
		expect(Object.keys(stored(global).delivered)).toEqual(['completed:done']);
	});

	test('store merges the durable copy it finds: two writers of one workflow lose nothing', () => {
		const global: IDataObject = {
			[STATIC_DATA_KEY]: { v: 1, delivered: { 'completed:old': T0 - 1000 }, events: {} },
		};
		const registry = new Deliveries();
		registry.deliver('completed:new', T0);
		registry.store(global, T0);
		expect(Object.keys(stored(global).delivered).sort()).toEqual([
			'completed:new',
			'completed:old',
		]);
		// A restarted process learns the durable copy by loading it.
		const restarted = new Deliveries();
		restarted.load(global);
		expect(restarted.status('completed:old')).toBe('delivered');
		// Garbage in the durable copy is ignored.
		const broken: IDataObject = { [STATIC_DATA_KEY]: { delivered: { a: 'x', b: 1 }, events: [1] } };
		const fromBroken = new Deliveries();
		fromBroken.load(broken);
		expect([fromBroken.status('a'), fromBroken.status('b')]).toEqual([undefined, 'delivered']);
	});

	test('bounded: delivered keys by age (31 days) and count; the newest dropped time becomes the floor', () => {
		const registry = new Deliveries();
		registry.deliver('completed:ancient', T0 - DELIVERIES_RETAINED_MS - 1);
		for (let i = 0; i < MAX_REMEMBERED + 5; i++) registry.deliver(`completed:${i}`, T0 + i);
		const global: IDataObject = {};
		registry.store(global, T0 + MAX_REMEMBERED + 5);
		const kept = stored(global).delivered;
		expect(Object.keys(kept)).toHaveLength(MAX_REMEMBERED);
		expect(kept['completed:ancient']).toBeUndefined();
		expect(kept['completed:4']).toBeUndefined();
		expect(kept['completed:5']).toBe(T0 + 5);
		expect(stored(global).floor).toBe(T0 + 4);
		expect(registry.floor).toBe(T0 + 4);
		expect(registry.status('completed:4')).toBeUndefined();
	});

	test('one registry per workflow in a process', () => {
		expect(deliveriesOf('wf-a')).toBe(deliveriesOf('wf-a'));
		expect(deliveriesOf('wf-a')).not.toBe(deliveriesOf('wf-b'));
	});
});
