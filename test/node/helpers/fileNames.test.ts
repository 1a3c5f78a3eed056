import { safeFileName } from '../../../nodes/AbbyyVantage/helpers/fileNames';

describe('safeFileName', () => {
	test.each([
		['export-3f2c/../x-0.csv', 'export-3f2c_.._x-0.csv'],
		['a:b*c?d"e<f>g|h\\i.csv', 'a_b_c_d_e_f_g_h_i.csv'],
		['line\nbreak\u0000.pdf', 'line_break_.pdf'],
		['..', 'file'],
		['   ', 'file'],
		['Invoice Ärger 日本.pdf', 'Invoice Ärger 日本.pdf'],
	])('%j → %j', (input, expected) => {
		expect(safeFileName(input)).toBe(expected);
	});

	test('long names are cut to 200 characters', () => {
		expect(safeFileName('x'.repeat(500))).toHaveLength(200);
	});
});
