import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a,b}from"./chunk-S33FCIBJ.js";import"./chunk-F2JNSW7C.js";import"./chunk-SYDBAJ6Y.js";import"./chunk-FJAPFPMZ.js";import"./chunk-BXOQBWNF.js";import"./chunk-T7CKW7ZJ.js";import"./chunk-TUMRBTLL.js";import"./chunk-HMQFXXPU.js";import"./chunk-H3ODVHUH.js";import"./chunk-O45PL77X.js";import"./chunk-4PYPBIHA.js";import"./chunk-KKA7AQUK.js";import"./chunk-FC5NRJ7C.js";import"./chunk-7DOOPZ4R.js";import"./chunk-XBPPTJU7.js";export{b as action,a as post};
